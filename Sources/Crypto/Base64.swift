/// RFC 4648 base64 in its two alphabets: `Base64.standard` (§4, `+` `/`, `=` padding: Standard
/// Webhooks secrets and signatures, MIME encoded words) and `Base64.url` (§5, `-` `_`, no
/// padding: tokens, JWTs per RFC 7515 §2 "with all trailing '=' characters omitted", Web Push
/// keys per RFC 8291 §3.2).
public struct Base64: Sendable {
    /// RFC 4648 §4, padded.
    public static let standard = Base64(last: (UInt8(ascii: "+"), UInt8(ascii: "/")), padded: true)
    /// RFC 4648 §5, unpadded.
    public static let url = Base64(last: (UInt8(ascii: "-"), UInt8(ascii: "_")), padded: false)

    private let alphabet: [UInt8]
    private let padded: Bool

    private init(last: (UInt8, UInt8), padded: Bool) {
        alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8) + [last.0, last.1]
        self.padded = padded
    }

    /// The encoding of `bytes`, with `=` padding for `.standard` and without for `.url`.
    public func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next(), third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            // n input bytes give n + 1 symbols, then padding up to 4.
            let symbols = third != nil ? 4 : second != nil ? 3 : 2
            for index in 0..<symbols {
                out.append(alphabet[Int(group >> UInt32(18 - 6 * index) & 0x3F)])
            }
            if padded { out += [UInt8](repeating: UInt8(ascii: "="), count: 4 - symbols) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of `text`, or nil if it is not this alphabet's base64: other characters
    /// (whitespace included), a length no whole number of bytes gives, padding anywhere but the
    /// end or not completing a group, non-zero leftover bits. Padding is optional in both.
    public func decode(_ text: String) -> [UInt8]? {
        var symbols = Array(text.utf8)
        var padding = 0
        while symbols.last == UInt8(ascii: "=") {
            symbols.removeLast()
            padding += 1
        }
        guard padding <= 2, symbols.count % 4 != 1 else { return nil }
        if padding > 0, (symbols.count + padding) % 4 != 0 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(symbols.count * 3 / 4)
        var group: UInt32 = 0
        var bits = 0
        for symbol in symbols {
            guard let value = alphabet.firstIndex(of: symbol) else { return nil }
            group = (group << 6 | UInt32(value)) & 0xFFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: group >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero in a canonical encoding.
        guard group & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return out
    }
}
