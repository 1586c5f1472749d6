import COpenSSL

/// Time-based one-time passwords (RFC 6238 over RFC 4226): HMAC-SHA1, 6 digits, 30-second steps
/// counted from the Unix epoch — what every authenticator app computes by default.
public enum TOTP {
    public static let digits = 6
    public static let stepSeconds: Int64 = 30

    /// The time step a moment (seconds since the epoch) falls in.
    public static func step(atSeconds seconds: Int64) -> Int64 { seconds / stepSeconds }

    /// The code of `step` for `secret`, zero-padded to 6 digits (RFC 4226 §5.3, dynamic truncation).
    public static func code(secret: [UInt8], step: Int64) -> String {
        var counter = [UInt8](repeating: 0, count: 8)
        for i in 0..<8 { counter[i] = UInt8(truncatingIfNeeded: UInt64(bitPattern: step) >> (8 * (7 - UInt64(i)))) }
        let mac = hmacSHA1(key: secret, message: counter)
        let offset = Int(mac[19] & 0x0F)
        let binary = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        let text = String(binary % 1_000_000)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// The step among `step-1 … step+1` whose code equals `code` (compared in constant time),
    /// or nil. The caller refuses a step at or before the last one it accepted (no replay).
    public static func matchingStep(secret: [UInt8], code: String, around step: Int64) -> Int64? {
        let given = Array(code.utf8)
        var found: Int64?
        for candidate in (step - 1)...(step + 1) {
            // Every candidate is checked, so the time taken does not tell which one matched.
            if Crypto.constantTimeEquals(Array(self.code(secret: secret, step: candidate).utf8), given), found == nil {
                found = candidate
            }
        }
        return found
    }

    static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        key.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { o in
                    _ = HMAC(EVP_sha1(), k.baseAddress, Int32(k.count), m.baseAddress, m.count, o.baseAddress, &length)
                }
            }
        }
        return Array(out.prefix(Int(length)))
    }
}

/// RFC 4648 base32 without padding, as `otpauth://` URIs carry a TOTP secret.
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        var buffer: UInt32 = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 0x1F)])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 0x1F)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
