import COpenSSL

/// A NIST P-256 (secp256r1, OpenSSL's `prime256v1`) private key: the APNs provider key
/// (Apple's `.p8`), the VAPID key, and the ephemeral key of one Web Push message.
///
/// Loaded from PEM, either PKCS#8 (`-----BEGIN PRIVATE KEY-----`, RFC 5958; what Apple hands
/// out) or SEC1 (`-----BEGIN EC PRIVATE KEY-----`, RFC 5915; what `openssl ecparam -genkey`
/// writes). The private scalar stays inside libcrypto; only the public point is copied out.
public final class P256PrivateKey: PEMKey {
    let key: PKey
    /// The public key as the uncompressed point `0x04 || X || Y` (SEC1 §2.3.3), 65 bytes.
    public let publicKey: [UInt8]

    private init(key: PKey, publicKey: [UInt8]) {
        self.key = key
        self.publicKey = publicKey
    }

    /// Parses the key from PEM text held by the caller (who wipes it afterwards); `PEMKey`
    /// adds `init(pemFile:source:)`.
    /// - Parameter source: How errors name the key, e.g. `"push.apns.keyFile (/etc/…/AuthKey.p8)"`.
    public init(pem: [UInt8], source: String) throws(KeyError) {
        (key, publicKey) = try PKey.load(pem: pem, source: source, validate: P256PrivateKey.check)
    }

    /// A fresh key from OpenSSL's CSPRNG (EVP_PKEY_generate(3)), e.g. the one-message key of
    /// RFC 8291 §2: "When sending a message, an application server generates an ECDH key pair
    /// and a random salt."
    public static func generate() throws(CryptoError) -> P256PrivateKey {
        let key = PKey(taking: try generatedKey())
        guard let publicKey = key.withKey({ Self.uncompressedPoint($0) }) else {
            throw CryptoError(operation: "EVP_PKEY_get_octet_string_param(pub)", code: 0)
        }
        return P256PrivateKey(key: key, publicKey: publicKey)
    }

    /// A new `EVP_PKEY` on P-256, owned by the caller.
    private static func generatedKey() throws(CryptoError) -> OpaquePointer {
        let context = try libcrypto("EVP_PKEY_CTX_new_from_name", EVP_PKEY_CTX_new_from_name(nil, "EC", nil))
        defer { EVP_PKEY_CTX_free(context) }
        try libcrypto("EVP_PKEY_keygen_init", EVP_PKEY_keygen_init(context))
        try libcrypto("EVP_PKEY_CTX_set_group_name", EVP_PKEY_CTX_set_group_name(context, "P-256"))
        var generated: OpaquePointer?
        try libcrypto("EVP_PKEY_generate", EVP_PKEY_generate(context, &generated))
        return try libcrypto("EVP_PKEY_generate", generated)
    }

    /// `publicKey` in base64url without padding: the VAPID `k=` parameter (RFC 8292 §3.2) and
    /// the `applicationServerKey` a page hands to `PushManager.subscribe` (`data-vapid-key`).
    public var publicKeyBase64URL: String { Base64.url.encode(publicKey) }

    /// The ES256 signature of `message` in the JOSE form of RFC 7518 §3.4: the 32-byte
    /// big-endian R then the 32-byte S ("The result is a 64-octet sequence"), not the DER
    /// `ECDSA-Sig-Value` libcrypto produces.
    public func signatureES256(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        let der = try key.signSHA256(message)
        var cursor: UnsafePointer<UInt8>? = nil
        let signature = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        let parsed = try libcrypto("d2i_ECDSA_SIG", signature)
        defer { ECDSA_SIG_free(parsed) }
        var raw = [UInt8](repeating: 0, count: 64)
        let written = raw.withUnsafeMutableBufferPointer { out in
            (BN_bn2binpad(ECDSA_SIG_get0_r(parsed), out.baseAddress, 32),
             BN_bn2binpad(ECDSA_SIG_get0_s(parsed), out.baseAddress! + 32, 32))
        }
        guard written == (32, 32) else { throw CryptoError(operation: "BN_bn2binpad", code: ERR_get_error()) }
        return raw
    }

    /// The ECDH shared secret with the peer's public `point` (the X coordinate, 32 bytes,
    /// EVP_PKEY_derive(3)). The caller wipes it.
    func sharedSecret(with peer: P256PublicKey) throws(CryptoError) -> [UInt8] {
        let peerKey = try peer.makeKey()
        defer { EVP_PKEY_free(peerKey) }
        return try key.withKey { (key) throws(CryptoError) -> [UInt8] in
            let context = try libcrypto("EVP_PKEY_CTX_new", EVP_PKEY_CTX_new(key, nil))
            defer { EVP_PKEY_CTX_free(context) }
            try libcrypto("EVP_PKEY_derive_init", EVP_PKEY_derive_init(context))
            try libcrypto("EVP_PKEY_derive_set_peer", EVP_PKEY_derive_set_peer(context, peerKey))
            var length = 32
            var secret = [UInt8](repeating: 0, count: 32)
            try libcrypto("EVP_PKEY_derive", EVP_PKEY_derive(context, &secret, &length))
            guard length == 32 else { throw CryptoError(operation: "EVP_PKEY_derive", code: 0) }
            return secret
        }
    }

    /// Refuses anything but an EC key on P-256 and answers its uncompressed public point.
    private static func check(_ key: OpaquePointer, source: String) throws(KeyError) -> [UInt8] {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else {
            throw KeyError(.wrongKeyType, source: source, detail: "an \(PKey.typeName(key)) key where an EC P-256 key is expected")
        }
        var name = [CChar](repeating: 0, count: 80)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else {
            ERR_clear_error()
            throw KeyError(.wrongCurve, source: source, detail: "an EC key without a named curve")
        }
        let curve = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard ["prime256v1", "P-256", "secp256r1"].contains(curve) else {
            throw KeyError(.wrongCurve, source: source, detail: "curve \(curve)")
        }
        guard let point = uncompressedPoint(key) else {
            throw KeyError(.malformed, source: source, detail: "no public point could be derived")
        }
        return point
    }

    /// The key's public point, uncompressed whatever form the file stored it in (a SEC1 key
    /// keeps the form of its `publicKey` field; "point-format" sets it, EVP_PKEY-EC(7)).
    private static func uncompressedPoint(_ key: OpaquePointer) -> [UInt8]? {
        _ = EVP_PKEY_set_utf8_string_param(key, "point-format", "uncompressed")
        var point = [UInt8](repeating: 0, count: 65)
        var length = 0
        guard EVP_PKEY_get_octet_string_param(key, "pub", &point, point.count, &length) == 1,
              length == 65, point[0] == 0x04 else {
            ERR_clear_error()
            return nil
        }
        return point
    }
}
