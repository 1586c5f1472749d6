import Crypto
import Foundation

/// The secret the audit chain is keyed with (HMAC-SHA256, see `AuditChain`), and where it came
/// from. Its bytes never leave this value: `description` shows only the source and the
/// fingerprint, so a key can be logged or put in an error message by mistake without harm.
public struct AuditKey: HexKeyFileKey, CustomStringConvertible {
    /// At least 256 bits (docs/product.md, "Hostile-traffic details").
    public static let minimumByteCount = 32

    let bytes: [UInt8]
    /// The key set up in libcrypto once: every audit row on the write path is signed with it.
    private let prepared: HMACSHA256Key
    /// Where it was read from, for the operator (`audit.keyFile /etc/…`, `$CREDENTIALS_DIRECTORY/audit-key`).
    public let source: String

    /// A key of `bytes` (at least 32).
    public init(bytes: [UInt8], source: String) throws {
        guard bytes.count >= Self.minimumByteCount else {
            throw DaemonError("\(source): the audit key must be at least \(Self.minimumByteCount) bytes (\(2 * Self.minimumByteCount) hexadecimal characters), it has \(bytes.count)")
        }
        self.bytes = bytes
        self.source = source
        prepared = try HMACSHA256Key(bytes)
        fingerprint = String(Crypto.hex(Crypto.hmacSHA256(key: bytes, message: Array("hyponatrack audit key fingerprint".utf8))).prefix(16))
    }

    /// A key file's text: hexadecimal digits (either case, an even number, at least 64),
    /// surrounding whitespace ignored — e.g. the output of `openssl rand -hex 32`.
    public init(hexText: String, source: String) throws {
        guard let bytes = Crypto.bytes(hex: hexText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw DaemonError("\(source): an audit key file holds the key as hexadecimal digits on one line (e.g. `openssl rand -hex 32`)")
        }
        try self.init(bytes: bytes, source: source)
    }

    /// 32 fresh bytes from the CSPRNG.
    public static func generate(source: String) throws -> AuditKey {
        try AuditKey(bytes: try Crypto.randomBytes(minimumByteCount), source: source)
    }

    /// The key as a key file holds it: 64 lower-case hex characters for a generated key.
    var hexText: String { Crypto.hex(bytes) }

    /// HMAC-SHA256 of `message` under this key.
    func mac(_ message: [UInt8]) -> [UInt8] { prepared.mac(message) }

    /// Names the key without revealing it: the first 16 hex digits of
    /// HMAC-SHA256(key, "hyponatrack audit key fingerprint"). Stored with the database
    /// (`audit_key`), so a start with another key is refused before it writes a single row that
    /// the right key could not verify.
    public let fingerprint: String

    public var description: String { "audit key \(fingerprint) from \(source)" }
}
