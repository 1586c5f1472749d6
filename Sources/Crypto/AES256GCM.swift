import COpenSSL

/// AES-256-GCM over EVP for secrets kept at rest (a member's TOTP secret): a fresh 12-byte
/// nonce per sealing, additional data binding the ciphertext to its row, and the 16-byte tag.
/// The sealed form is `nonce ‖ ciphertext ‖ tag`.
public enum AES256GCM {
    public static let keyByteCount = 32
    static let nonceByteCount = 12
    static let tagByteCount = 16

    /// `plaintext` sealed under `key` (32 bytes) with `additionalData` authenticated.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], additionalData: [UInt8]) throws(CryptoError) -> [UInt8] {
        precondition(key.count == keyByteCount)
        let nonce = try Crypto.randomBytes(nonceByteCount)
        let context = try libcrypto("EVP_CIPHER_CTX_new", EVP_CIPHER_CTX_new())
        defer { EVP_CIPHER_CTX_free(context) }
        try libcrypto("EVP_EncryptInit_ex", EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce))
        var length: Int32 = 0
        try libcrypto("EVP_EncryptUpdate(aad)", EVP_EncryptUpdate(context, nil, &length, additionalData, Int32(additionalData.count)))
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        try libcrypto("EVP_EncryptUpdate", EVP_EncryptUpdate(context, &ciphertext, &length, plaintext, Int32(plaintext.count)))
        guard Int(length) == plaintext.count else { throw CryptoError(operation: "EVP_EncryptUpdate", code: 0) }
        var rest = [UInt8](repeating: 0, count: 16), restLength: Int32 = 0
        try libcrypto("EVP_EncryptFinal_ex", EVP_EncryptFinal_ex(context, &rest, &restLength))
        var tag = [UInt8](repeating: 0, count: tagByteCount)
        try libcrypto("EVP_CIPHER_CTX_ctrl(GET_TAG)", EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagByteCount), &tag))
        return nonce + ciphertext + tag
    }

    /// The plaintext of a sealed value, or nil when the key, the additional data or any byte of
    /// it is wrong (the tag does not verify).
    public static func open(_ sealed: [UInt8], key: [UInt8], additionalData: [UInt8]) -> [UInt8]? {
        precondition(key.count == keyByteCount)
        guard sealed.count >= nonceByteCount + tagByteCount, let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context); ERR_clear_error() }
        let nonce = Array(sealed.prefix(nonceByteCount))
        let ciphertext = Array(sealed.dropFirst(nonceByteCount).dropLast(tagByteCount))
        var tag = Array(sealed.suffix(tagByteCount))
        var length: Int32 = 0
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        var rest = [UInt8](repeating: 0, count: 16), restLength: Int32 = 0
        guard EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1,
              EVP_DecryptUpdate(context, nil, &length, additionalData, Int32(additionalData.count)) == 1,
              EVP_DecryptUpdate(context, &plaintext, &length, ciphertext, Int32(ciphertext.count)) == 1,
              EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tagByteCount), &tag) == 1,
              EVP_DecryptFinal_ex(context, &rest, &restLength) == 1 else { return nil }
        return plaintext
    }
}
