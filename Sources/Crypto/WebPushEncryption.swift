import COpenSSL

/// Message Encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188):
/// the body of the POST to a subscription's endpoint, sent with `Content-Encoding: aes128gcm`.
public enum WebPush {
    /// The record size written into the header. One record carries the whole message.
    public static let recordSize = 4096
    /// salt (16) || rs (4) || idlen (1) || keyid (65): RFC 8291 §4 carries the application
    /// server's ephemeral public key, uncompressed (65 octets), as the RFC 8188 keyid.
    static let headerLength = 16 + 4 + 1 + 65
    /// The largest payload: a push service must take 4096 bytes of body (RFC 8030 §7.2,
    /// RFC 8291 §4), less the header, the 16-byte tag and the 1-byte padding delimiter.
    public static let maximumPayloadLength = recordSize - headerLength - 16 - 1

    /// The encrypted body for `payload` (e.g. the JSON `{"title", "body", "kind", "date",
    /// "slot"}`), with a fresh ephemeral key and a fresh 16-byte salt from OpenSSL's CSPRNG.
    /// - Parameter padding: zero bytes added after the delimiter, to hide the payload's length.
    public static func encrypt(_ payload: [UInt8], for subscription: WebPushSubscription,
                               padding: Int = 0) throws(WebPushError) -> [UInt8] {
        let senderKey = try WebPushError.wrapping { () throws(CryptoError) in try P256PrivateKey.generate() }
        let salt = try WebPushError.wrapping { () throws(CryptoError) in try Crypto.randomBytes(16) }
        return try encrypt(payload, for: subscription, padding: padding, senderKey: senderKey, salt: salt)
    }

    /// The same with the sender's key and the salt given: for RFC 8291 Appendix A's example.
    static func encrypt(_ payload: [UInt8], for subscription: WebPushSubscription, padding: Int,
                        senderKey: P256PrivateKey, salt: [UInt8]) throws(WebPushError) -> [UInt8] {
        guard padding >= 0, payload.count + padding <= maximumPayloadLength else {
            throw .payloadTooLarge(bytes: payload.count + max(padding, 0), limit: maximumPayloadLength)
        }
        guard let userAgentKey = P256PublicKey(uncompressed: subscription.p256dh) else {
            throw .invalidPublicKey(reason: "p256dh is not a point on the P-256 curve")
        }
        return try WebPushError.wrapping { () throws(CryptoError) -> [UInt8] in
            var (contentKey, nonce) = try contentKeyAndNonce(senderKey: senderKey, userAgentKey: userAgentKey,
                                                             auth: subscription.auth, salt: salt)
            defer { Crypto.wipe(&contentKey); Crypto.wipe(&nonce) }
            // RFC 8188 §2: the last record's plaintext ends with the delimiter 0x02, then any
            // zero padding.
            var record = payload + [0x02] + [UInt8](repeating: 0, count: padding)
            defer { Crypto.wipe(&record) }
            let ciphertext = try AES128GCM.seal(record, key: contentKey, nonce: nonce)
            // RFC 8188 §2.1: salt (16) || rs (uint32, network order) || idlen (uint8) || keyid.
            let rs = UInt32(recordSize)
            let header = salt + [UInt8(rs >> 24), UInt8(rs >> 16 & 0xFF), UInt8(rs >> 8 & 0xFF), UInt8(rs & 0xFF)]
                + [UInt8(senderKey.publicKey.count)] + senderKey.publicKey
            return header + ciphertext
        }
    }

    /// The content-encryption key (16 bytes) and nonce (12 bytes) of RFC 8291 §3.4 and
    /// RFC 8188 §2.2–2.3. The caller wipes both.
    static func contentKeyAndNonce(senderKey: P256PrivateKey, userAgentKey: P256PublicKey, auth: [UInt8],
                                   salt: [UInt8]) throws(CryptoError) -> (key: [UInt8], nonce: [UInt8]) {
        // RFC 8291 §3.4:
        //   ecdh_secret = ECDH(as_private, ua_public)
        //   PRK_key = HMAC-SHA-256(auth_secret, ecdh_secret)
        //   key_info = "WebPush: info" || 0x00 || ua_public || as_public
        //   IKM = HMAC-SHA-256(PRK_key, key_info || 0x01)
        var ecdhSecret = try senderKey.sharedSecret(with: userAgentKey)
        defer { Crypto.wipe(&ecdhSecret) }
        let keyInfo = Array("WebPush: info".utf8) + [0x00] + userAgentKey.point + senderKey.publicKey
        var inputKeyingMaterial = HKDF.sha256(salt: auth, inputKeyingMaterial: ecdhSecret, info: keyInfo, length: 32)
        defer { Crypto.wipe(&inputKeyingMaterial) }
        //   PRK = HMAC-SHA-256(salt, IKM)
        //   CEK = HMAC-SHA-256(PRK, "Content-Encoding: aes128gcm" || 0x00 || 0x01)[0..15]
        //   NONCE = HMAC-SHA-256(PRK, "Content-Encoding: nonce" || 0x00 || 0x01)[0..11]
        // With one record the sequence number is 0, and the nonce is used as it is (RFC 8188 §2.3).
        let key = HKDF.sha256(salt: salt, inputKeyingMaterial: inputKeyingMaterial,
                              info: Array("Content-Encoding: aes128gcm".utf8) + [0x00], length: 16)
        let nonce = HKDF.sha256(salt: salt, inputKeyingMaterial: inputKeyingMaterial,
                                info: Array("Content-Encoding: nonce".utf8) + [0x00], length: 12)
        return (key, nonce)
    }
}

/// HKDF with HMAC-SHA-256 (RFC 5869) for outputs of at most one hash length, which is all
/// RFC 8291 needs: `PRK = HMAC(salt, IKM)`, `OKM = HMAC(PRK, info || 0x01)[0..<length]`.
enum HKDF {
    static func sha256(salt: [UInt8], inputKeyingMaterial: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        precondition((1...32).contains(length), "one HKDF-SHA-256 expand block gives at most 32 bytes")
        var pseudorandomKey = Crypto.hmacSHA256(key: salt, message: inputKeyingMaterial)
        defer { Crypto.wipe(&pseudorandomKey) }
        var block = Crypto.hmacSHA256(key: pseudorandomKey, message: info + [0x01])
        defer { Crypto.wipe(&block) }
        return Array(block.prefix(length))
    }
}

/// AES-128-GCM sealing over EVP (EVP_EncryptInit_ex(3), "GCM and OCB Modes"): a 12-byte nonce,
/// no additional data, the 16-byte tag appended, as RFC 8188 §2 uses it.
enum AES128GCM {
    static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        precondition(key.count == 16 && nonce.count == 12)
        let context = try libcrypto("EVP_CIPHER_CTX_new", EVP_CIPHER_CTX_new())
        defer { EVP_CIPHER_CTX_free(context) }
        // 12 bytes is GCM's default IV length, so no EVP_CTRL_GCM_SET_IVLEN is needed.
        try libcrypto("EVP_EncryptInit_ex", EVP_EncryptInit_ex(context, EVP_aes_128_gcm(), nil, key, nonce))
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        var length: Int32 = 0
        try libcrypto("EVP_EncryptUpdate", EVP_EncryptUpdate(context, &ciphertext, &length, plaintext, Int32(plaintext.count)))
        guard Int(length) == plaintext.count else { throw CryptoError(operation: "EVP_EncryptUpdate", code: 0) }
        var rest = [UInt8](repeating: 0, count: 16), restLength: Int32 = 0
        try libcrypto("EVP_EncryptFinal_ex", EVP_EncryptFinal_ex(context, &rest, &restLength))
        guard restLength == 0 else { throw CryptoError(operation: "EVP_EncryptFinal_ex", code: 0) }
        var tag = [UInt8](repeating: 0, count: 16)
        try libcrypto("EVP_CIPHER_CTX_ctrl(GET_TAG)", EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, &tag))
        return ciphertext + tag
    }
}
