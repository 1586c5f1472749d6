import COpenSSL

/// An RSA private key of at least 2048 bits (RFC 7518 §3.3: "A key of size 2048 bits or larger
/// MUST be used"): the `private_key` of an FCM service account, a PKCS#8 PEM
/// (`-----BEGIN PRIVATE KEY-----`); PKCS#1 (`RSA PRIVATE KEY`) is read as well.
public final class RSAPrivateKey: PEMKey {
    let key: PKey
    /// The modulus length in bits.
    public let bits: Int

    /// Parses the key from PEM text held by the caller (e.g. the service account JSON's
    /// `private_key`, with its `\n` escapes already decoded), who wipes it afterwards;
    /// `PEMKey` adds `init(pemFile:source:)`.
    /// - Parameter source: How errors name the key, e.g. `"push.fcm.serviceAccountFile (…)"`.
    public init(pem: [UInt8], source: String) throws(KeyError) {
        (key, bits) = try PKey.load(pem: pem, source: source, validate: RSAPrivateKey.check)
    }

    /// The RS256 signature of `message`: RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3), as
    /// long as the modulus.
    public func signatureRS256(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        try key.signSHA256(message)
    }

    private static func check(_ key: OpaquePointer, source: String) throws(KeyError) -> Int {
        // RSA-PSS keys are refused too: RS256 is PKCS#1 v1.5, which a PSS-restricted key cannot sign.
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else {
            throw KeyError(.wrongKeyType, source: source, detail: "an \(PKey.typeName(key)) key where an RSA key is expected")
        }
        let bits = Int(EVP_PKEY_get_bits(key))
        guard bits >= 2048 else {
            throw KeyError(.tooShort, source: source, detail: "an RSA key of \(bits) bits (at least 2048 are needed)")
        }
        return bits
    }
}
