/// A private key that could not be used, with what the operator needs to fix it: which key
/// (`source`, e.g. the configuration key and its file) and what was wrong with it. Never holds
/// key material: `detail` names only PEM labels, key types, curve names and sizes.
public struct KeyError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// The file could not be opened or read.
        case unreadable
        /// No `-----BEGIN …-----` block, or one that does not end.
        case notPEM
        /// A PEM block that holds no private key (a public key, a certificate, …).
        case notAPrivateKey
        /// An `ENCRYPTED PRIVATE KEY`: the daemon has no passphrase to give.
        case encrypted
        /// A private key of another algorithm (RSA where EC is expected or the reverse).
        case wrongKeyType
        /// An EC key on a curve other than P-256.
        case wrongCurve
        /// An RSA key shorter than 2048 bits.
        case tooShort
        /// A private-key PEM block whose contents libcrypto could not parse.
        case malformed
    }

    public let code: Code
    /// The key's origin as the caller named it (a configuration key and its path).
    public let source: String
    /// What was found, e.g. "a PUBLIC KEY block" or "curve secp384r1".
    public let detail: String

    public init(_ code: Code, source: String, detail: String) {
        self.code = code
        self.source = source
        self.detail = detail
    }

    public var description: String {
        let what: String
        switch code {
        case .unreadable: what = "cannot be read"
        case .notPEM: what = "is not PEM"
        case .notAPrivateKey: what = "holds no private key"
        case .encrypted: what = "is encrypted (a passphrase-protected key cannot be used)"
        case .wrongKeyType: what = "is a private key of the wrong type"
        case .wrongCurve: what = "is not on the P-256 curve"
        case .tooShort: what = "is too short"
        case .malformed: what = "is a damaged private key"
        }
        return "\(source) \(what): \(detail)"
    }
}
