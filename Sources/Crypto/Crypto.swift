import COpenSSL

/// The project's only door to OpenSSL's libcrypto: hashes, HMAC, the CSPRNG and a
/// constant-time comparison here; beside it the push providers' cryptography: P-256 and RSA
/// private keys from PEM (`P256PrivateKey`, `RSAPrivateKey`), JWTs signed ES256/RS256 (`JWT`),
/// Web Push message encryption (`WebPush`, `WebPushSubscription`) and VAPID (`VAPID`).
/// Nothing else imports `COpenSSL`.
public enum Crypto {
    /// Initialises libcrypto without its atexit handler. OpenSSL's atexit cleanup races Swift's
    /// runtime teardown on libdispatch threads (double free at exit); swift-corelibs-foundation
    /// calls `OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT)` before `curl_global_init` for this
    /// reason, and so do we. Idempotent.
    public static func initialize() {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }

    /// OpenSSL's version string, e.g. "OpenSSL 3.0.x ...".
    public static var libraryVersion: String {
        String(cString: OpenSSL_version(OPENSSL_VERSION))
    }

    /// SHA-256 of `bytes`.
    public static func sha256<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        let input = Array(bytes)
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        input.withUnsafeBufferPointer { inPtr in
            digest.withUnsafeMutableBufferPointer { outPtr in
                _ = SHA256(inPtr.baseAddress, inPtr.count, outPtr.baseAddress)
            }
        }
        return digest
    }

    /// HMAC-SHA256 of `message` under `key`.
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        key.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { o in
                    _ = HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress, m.count,
                             o.baseAddress, &length)
                }
            }
        }
        return Array(out.prefix(Int(length)))
    }

    /// `count` bytes from OpenSSL's CSPRNG (seeded from the OS). Throws if the generator fails,
    /// which must never be papered over with a weaker source.
    public static func randomBytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let ok = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        guard ok == 1 else { throw CryptoError(operation: "RAND_bytes", code: ERR_get_error()) }
        return bytes
    }

    /// Compares two byte strings in time that depends only on their length (`CRYPTO_memcmp`).
    public static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in CRYPTO_memcmp(pa.baseAddress, pb.baseAddress, pa.count) == 0 }
        }
    }

    /// Lower-case hexadecimal rendering.
    public static func hex(_ bytes: [UInt8]) -> String {
        // Written in place: every token check and audit row renders a digest.
        String(unsafeUninitializedCapacity: 2 * bytes.count) { out in
            var i = 0
            for b in bytes {
                out[i] = hexDigit(b >> 4)
                out[i + 1] = hexDigit(b & 0x0F)
                i += 2
            }
            return i
        }
    }

    @inline(__always) private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// The bytes of a hexadecimal string (either case, an even number of digits); nil for
    /// anything else.
    public static func bytes(hex text: String) -> [UInt8]? {
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}

/// A libcrypto call that failed, with OpenSSL's error code.
public struct CryptoError: Error, Equatable, CustomStringConvertible {
    public let operation: String
    public let code: UInt
    public var description: String { "\(operation) failed (OpenSSL error \(code))" }
}
