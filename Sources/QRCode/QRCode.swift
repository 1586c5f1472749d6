import CQRencode
#if canImport(Glibc)
import Glibc
#endif

/// A QR code symbol (ISO/IEC 18004) made by libqrencode: a square of dark and light modules,
/// without the quiet zone. The only door to `CQRencode`; it renders as inline SVG for the
/// console (`svg(moduleSize:quietZone:title:)`) and as UTF-8 half blocks for the CLI
/// (`terminalText(quietZone:background:)`).
///
/// ```swift
/// let code = try QRCode(text: "https://study.example.org/app/activate?study=BR-0042&code=ABCD-EFGH-JKLM")
/// let svg = code.svg(moduleSize: 4, title: "Activation link")
/// ```
public struct QRCode: Sendable, Equatable {
    /// The four levels of ISO/IEC 18004 §7.5.1: roughly 7, 15, 25 and 30 % of the symbol may be
    /// damaged and still read. `.medium` survives a crumpled printout at a modest size.
    public enum ErrorCorrection: Sendable {
        case low, medium, quartile, high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// The longest text taken, in UTF-8 bytes. An activation URL is well under it; at
    /// `.medium` it needs version 13 at most (69 modules: 77 terminal columns with the quiet
    /// zone, inside an 80-column terminal) and stays readable from a phone at handout size.
    public static let maximumInputBytes = 320

    /// The symbol version, 1…40 (the smallest that holds the text at the level).
    public let version: Int
    /// Modules per side, `17 + 4 × version`.
    public let size: Int
    /// Row-major, `size × size`, true for a dark module.
    public let modules: [Bool]

    /// Encodes `text` with libqrencode's mode optimisation (`QRcode_encodeString`: numeric and
    /// alphanumeric stretches packed tighter, the rest in 8-bit mode, UTF-8 bytes as they are),
    /// case-sensitive, at the smallest version that holds it.
    public init(text: String, errorCorrection: ErrorCorrection = .medium) throws(QRCodeError) {
        let bytes = text.utf8.count
        guard bytes > 0 else { throw .empty }
        guard bytes <= Self.maximumInputBytes else { throw .tooLong(bytes: bytes, limit: Self.maximumInputBytes) }
        // A C string ends at the first NUL; the text would be cut there without a word.
        guard !text.utf8.contains(0) else { throw .containsNUL }
        errno = 0
        guard let symbol = QRcode_encodeString(text, 0, errorCorrection.level, QR_MODE_8, 1) else {
            // qrencode.h: "On error, NULL is returned, and errno is set": EINVAL, ENOMEM, or
            // ERANGE "input data is too large", which the limit above keeps from happening
            // (version 40 holds 1,273 bytes even at level H).
            throw .encodingFailed(errno: errno)
        }
        defer { QRcode_free(symbol) }
        let size = Int(symbol.pointee.width)
        // qrencode.h: "If the less significant bit of the uchar is 1, the corresponding module
        // is black. The other bits are meaningless for usual applications".
        let data = UnsafeBufferPointer(start: symbol.pointee.data, count: size * size)
        self.version = Int(symbol.pointee.version)
        self.size = size
        self.modules = data.map { $0 & 1 == 1 }
    }

    /// Whether the module at (`row`, `column`) is dark; false outside the symbol, where the
    /// quiet zone is.
    public func isDark(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }
}

/// Text that cannot become a QR code, with what was wrong with it.
public enum QRCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    /// More than `limit` bytes (`QRCode.maximumInputBytes`), or more than the level holds.
    case tooLong(bytes: Int, limit: Int)
    case containsNUL
    /// libqrencode itself failed (out of memory), with its errno.
    case encodingFailed(errno: Int32)

    public var description: String {
        switch self {
        case .empty: "cannot make a QR code of empty text"
        case .tooLong(let bytes, let limit): "cannot make a QR code of \(bytes) bytes of text (at most \(limit))"
        case .containsNUL: "cannot make a QR code of text that contains a NUL character"
        case .encodingFailed(let code): "libqrencode failed: \(String(cString: strerror(code)))"
        }
    }
}
