import COpenSSL
import Synchronization

/// An `EVP_PKEY` this process owns, freed (and its private part cleansed, EVP_PKEY_free(3))
/// when the last reference goes. The pointer is only used under the lock, so one key can sign
/// from any thread: the lock costs nothing next to a signature, and no reasoning about which
/// OpenSSL calls on a shared key are read-only is needed.
final class PKey: Sendable {
    private let key: Mutex<OpaquePointer>

    /// Takes ownership of `key`.
    init(taking key: sending OpaquePointer) {
        self.key = Mutex(key)
    }

    deinit {
        key.withLock { EVP_PKEY_free($0) }
    }

    func withKey<Result: Sendable, Failure: Error>(_ body: (OpaquePointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try key.withLock { (key: inout OpaquePointer) throws(Failure) -> Result in try body(key) }
    }

    /// The signature of `message` with SHA-256 as the digest (EVP_DigestSign(3)): for an EC key
    /// the DER `ECDSA-Sig-Value` of RFC 3279 §2.2.3, for an RSA key RSASSA-PKCS1-v1_5 (the
    /// default padding), as RFC 7518 §3.3 and §3.4 ask for RS256 and ES256.
    func signSHA256(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        try withKey { (key) throws(CryptoError) -> [UInt8] in
            let context = try libcrypto("EVP_MD_CTX_new", EVP_MD_CTX_new())
            defer { EVP_MD_CTX_free(context) }
            try libcrypto("EVP_DigestSignInit", EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key))
            var length = 0
            try libcrypto("EVP_DigestSign", EVP_DigestSign(context, nil, &length, message, message.count))
            var signature = [UInt8](repeating: 0, count: length)
            try libcrypto("EVP_DigestSign", EVP_DigestSign(context, &signature, &length, message, message.count))
            return Array(signature.prefix(length))
        }
    }

    /// libcrypto's name for the key's type ("RSA", "EC", "ED25519", …), for error details.
    static func typeName(_ key: OpaquePointer) -> String {
        EVP_PKEY_get0_type_name(key).map { String(cString: $0) } ?? "unknown"
    }

    /// Parses the private key in `pem`, checks it with `validate` (which gets the raw pointer
    /// and answers what the key type needs, e.g. its public point), and frees it when either
    /// step refuses it.
    static func load<Checked: Sendable>(pem: [UInt8], source: String,
                                        validate: (OpaquePointer, String) throws(KeyError) -> Checked) throws(KeyError) -> (PKey, Checked) {
        let key = try PrivateKeyPEM.parse(pem, source: source)
        let checked: Checked
        do {
            checked = try validate(key, source)
        } catch {
            EVP_PKEY_free(key)
            throw error
        }
        return (PKey(taking: key), checked)
    }
}

/// A private key read from PEM: `P256PrivateKey`, `RSAPrivateKey`.
public protocol PEMKey: Sendable {
    /// Parses the key from PEM text; `source` names the key in errors.
    init(pem: [UInt8], source: String) throws(KeyError)
}

extension PEMKey {
    /// Reads the key from the PEM file at `path` (through a BIO, so no other layer holds its
    /// bytes), wiping the bytes once parsed.
    /// - Parameter source: How errors name the key: the configuration key and the path.
    public init(pemFile path: String, source: String) throws(KeyError) {
        var pem = try PrivateKeyPEM.read(file: path, source: source)
        defer { Crypto.wipe(&pem) }
        try self.init(pem: pem, source: source)
    }
}
