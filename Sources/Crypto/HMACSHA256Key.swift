import COpenSSL
import Synchronization

/// An HMAC-SHA256 key prepared once, for many messages.
///
/// OpenSSL 3's one-shot `HMAC()` (`EVP_Q_mac`) fetches the algorithm and builds a context on
/// every call, which cost more than hashing an audit row. Here the `EVP_MAC_CTX` is set up with
/// the key once; each message re-initialises it with a NULL key, which "reuses the key set in
/// a previous call" (EVP_MAC_init(3); the HMAC provider then calls `HMAC_Init_ex(ctx, NULL, …)`).
/// One context serves every thread, behind a lock.
public final class HMACSHA256Key: @unchecked Sendable {
    // @unchecked: the two pointers are used only under `lock` (and freed in deinit).
    private let lock = Mutex(())
    private let algorithm: OpaquePointer
    private let context: OpaquePointer

    public init(_ key: [UInt8]) throws {
        guard let algorithm = EVP_MAC_fetch(nil, "HMAC", nil) else { throw CryptoError(operation: "EVP_MAC_fetch", code: ERR_get_error()) }
        guard let context = EVP_MAC_CTX_new(algorithm) else {
            EVP_MAC_free(algorithm)
            throw CryptoError(operation: "EVP_MAC_CTX_new", code: ERR_get_error())
        }
        let ok = "digest".withCString { name in
            "SHA256".withCString { digest in
                var params = [OSSL_PARAM_construct_utf8_string(name, UnsafeMutablePointer(mutating: digest), 0),
                              OSSL_PARAM_construct_end()]
                return key.withUnsafeBufferPointer { k in EVP_MAC_init(context, k.baseAddress, k.count, &params) }
            }
        }
        guard ok == 1 else {
            EVP_MAC_CTX_free(context)
            EVP_MAC_free(algorithm)
            throw CryptoError(operation: "EVP_MAC_init", code: ERR_get_error())
        }
        self.algorithm = algorithm
        self.context = context
    }

    deinit {
        EVP_MAC_CTX_free(context)
        EVP_MAC_free(algorithm)
    }

    /// HMAC-SHA256 of `message` (32 bytes), the same as `Crypto.hmacSHA256(key:message:)`.
    public func mac(_ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length = 0
        let ok = lock.withLock { _ -> Bool in
            message.withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { o in
                    EVP_MAC_init(context, nil, 0, nil) == 1
                        && EVP_MAC_update(context, m.baseAddress, m.count) == 1
                        && EVP_MAC_final(context, o.baseAddress, &length, o.count) == 1
                }
            }
        }
        // Only a broken libcrypto fails here; an audit row must never be signed with garbage.
        precondition(ok && length == 32, "HMAC-SHA256 failed in libcrypto (error \(ERR_get_error()))")
        return out
    }
}
