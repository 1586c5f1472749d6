import COpenSSL

/// Staff passwords as PBKDF2-HMAC-SHA256 with a random per-user salt (OpenSSL's
/// `PKCS5_PBKDF2_HMAC`), stored as `pbkdf2-sha256$ITERATIONS$SALT_HEX$HASH_HEX` so the cost can
/// rise later without invalidating older hashes. Never reversible; compared in constant time.
public enum PasswordHash {
    /// OWASP's 2023 figure for PBKDF2-HMAC-SHA256.
    public static let defaultIterations = 600_000
    static let scheme = "pbkdf2-sha256"
    static let saltBytes = 16
    static let hashBytes = 32

    /// A new hash of `password` with a fresh salt.
    public static func make(_ password: String, iterations: Int = defaultIterations) throws -> String {
        let salt = try Crypto.randomBytes(saltBytes)
        let hash = derive(Array(password.utf8), salt: salt, iterations: iterations)
        return "\(scheme)$\(iterations)$\(Crypto.hex(salt))$\(Crypto.hex(hash))"
    }

    /// Whether `password` matches `stored`; false for a malformed `stored` value.
    public static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == scheme, let iterations = Int(parts[1]), (1...10_000_000).contains(iterations),
              let salt = Crypto.bytes(hex: String(parts[2])), let expected = Crypto.bytes(hex: String(parts[3])),
              expected.count == hashBytes else { return false }
        return Crypto.constantTimeEquals(derive(Array(password.utf8), salt: salt, iterations: iterations), expected)
    }

    /// A hash that matches no password, for spending the same time on an unknown name.
    public static let decoy = "\(scheme)$\(defaultIterations)$\(String(repeating: "00", count: saltBytes))$\(String(repeating: "00", count: hashBytes))"

    static func derive(_ password: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: hashBytes)
        let length = Int32(password.count)
        let buffer = password.isEmpty ? [0] : password            // a valid pointer for the empty password
        let ok = buffer.withUnsafeBytes { p in
            salt.withUnsafeBufferPointer { s in
                PKCS5_PBKDF2_HMAC(p.baseAddress!.assumingMemoryBound(to: CChar.self), length, s.baseAddress, Int32(s.count),
                                  Int32(iterations), EVP_sha256(), Int32(hashBytes), &out)
            }
        }
        precondition(ok == 1, "PKCS5_PBKDF2_HMAC failed")
        return out
    }
}
