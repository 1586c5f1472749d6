import Crypto
import Foundation

/// The key the members' TOTP secrets are sealed with (AES-256-GCM) and their recovery codes
/// hashed with (HMAC-SHA256): kept like the audit key, outside the data directory, so a copy
/// of the database or a backup reveals neither (docs/product.md, third round, settled T).
/// `description` names only the source and a fingerprint.
public struct SecondFactorKey: HexKeyFileKey, CustomStringConvertible {
    let bytes: [UInt8]
    public let source: String
    /// The first 16 hex digits of HMAC-SHA256(key, "hyponatrack mfa key fingerprint"),
    /// stored beside each sealed secret so a start with another key is told apart from tampering.
    public let fingerprint: String

    public init(bytes: [UInt8], source: String) throws {
        guard bytes.count == AES256GCM.keyByteCount else {
            throw DaemonError("\(source): the second-factor key must be \(AES256GCM.keyByteCount) bytes (64 hexadecimal characters, e.g. `openssl rand -hex 32`), it has \(bytes.count)")
        }
        self.bytes = bytes
        self.source = source
        fingerprint = String(Crypto.hex(Crypto.hmacSHA256(key: bytes, message: Array("hyponatrack mfa key fingerprint".utf8))).prefix(16))
    }

    public init(hexText: String, source: String) throws {
        guard let bytes = Crypto.bytes(hex: hexText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw DaemonError("\(source): a second-factor key file holds 64 hexadecimal digits on one line (e.g. `openssl rand -hex 32`)")
        }
        try self.init(bytes: bytes, source: source)
    }

    public static func generate(source: String) throws -> SecondFactorKey {
        try SecondFactorKey(bytes: try Crypto.randomBytes(AES256GCM.keyByteCount), source: source)
    }

    var hexText: String { Crypto.hex(bytes) }

    /// A member's TOTP secret sealed for the row of `staffId` (the row's id is authenticated:
    /// a sealed secret copied onto another member's row does not open).
    func seal(_ secret: [UInt8], staffId: Int64) throws -> [UInt8] {
        try AES256GCM.seal(secret, key: bytes, additionalData: Self.binding(staffId))
    }

    func open(_ sealed: [UInt8], staffId: Int64) -> [UInt8]? {
        AES256GCM.open(sealed, key: bytes, additionalData: Self.binding(staffId))
    }

    /// What a recovery code is stored as: keyed, so the stored hashes cannot be searched offline.
    func recoveryHash(_ normalizedCode: String, staffId: Int64) -> String {
        Crypto.hex(Crypto.hmacSHA256(key: bytes, message: Array("hyponatrack recovery code v1:\(staffId):\(normalizedCode)".utf8)))
    }

    private static func binding(_ staffId: Int64) -> [UInt8] { Array("hyponatrack staff_mfa v1:\(staffId)".utf8) }

    public var description: String { "second-factor key \(fingerprint) from \(source)" }
}

/// Finds the second-factor key as `KeyFileSource` describes (as the audit key is found):
/// `console.mfaKeyFile`, else `$CREDENTIALS_DIRECTORY/mfa-key`, else `DATA_DIR/../mfa-key`
/// (created when missing, with a warning that it should move).
enum SecondFactorKeySource {
    static func load(configuration: ServerConfiguration,
                     environment: [String: String] = ProcessInfo.processInfo.environment, logger: Logger) throws -> SecondFactorKey {
        try KeyFileSource<SecondFactorKey>(what: "second-factor key", configKey: "console.mfaKeyFile",
                                           configuredFile: configuration.console.mfaKeyFile, credentialName: "mfa-key",
                                           reference: " (docs/operations.md)")
            .load(dataDirectory: configuration.dataDirectory, environment: environment, logger: logger)
    }
}
