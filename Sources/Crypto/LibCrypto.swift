import COpenSSL

extension Crypto {
    /// Overwrites `bytes` with zeros through `OPENSSL_cleanse(3)`, which the compiler may not
    /// optimise away, then empties the array. Best effort: a copy Swift made earlier (an array
    /// is copied on write) is not reached, so secrets are kept in one array and passed `inout`
    /// or borrowed, not copied around.
    public static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { OPENSSL_cleanse(base, buffer.count) }
        }
        bytes.removeAll()
    }
}

/// Throws a `CryptoError` naming `operation` unless libcrypto answered 1, its success value
/// for the EVP calls (0 or a negative number is a failure). Empties OpenSSL's thread-local error
/// queue either way, so that a later failure does not report a stale code.
func libcrypto(_ operation: String, _ result: Int32) throws(CryptoError) {
    guard result == 1 else {
        let code = ERR_get_error()
        ERR_clear_error()
        throw CryptoError(operation: operation, code: code)
    }
}

/// The pointer libcrypto returned, or a `CryptoError` naming `operation` for its NULL.
func libcrypto<Pointer>(_ operation: String, _ pointer: Pointer?) throws(CryptoError) -> Pointer {
    guard let pointer else {
        let code = ERR_get_error()
        ERR_clear_error()
        throw CryptoError(operation: operation, code: code)
    }
    return pointer
}
