import HTJSON

/// A key that signs JSON Web Tokens: its JWS `alg` (RFC 7518 §3.1) and the signature over the
/// JWS Signing Input, `ASCII(BASE64URL(header) || '.' || BASE64URL(payload))` (RFC 7515 §5.1).
public protocol JWTSigningKey: Sendable {
    var jwsAlgorithm: String { get }
    func jwsSignature(_ signingInput: [UInt8]) throws(CryptoError) -> [UInt8]
}

extension P256PrivateKey: JWTSigningKey {
    /// ES256: ECDSA P-256 with SHA-256, the APNs provider token's and VAPID's algorithm.
    public var jwsAlgorithm: String { "ES256" }
    public func jwsSignature(_ signingInput: [UInt8]) throws(CryptoError) -> [UInt8] { try signatureES256(signingInput) }
}

extension RSAPrivateKey: JWTSigningKey {
    /// RS256: RSASSA-PKCS1-v1_5 with SHA-256, Google's OAuth 2 JWT assertion.
    public var jwsAlgorithm: String { "RS256" }
    public func jwsSignature(_ signingInput: [UInt8]) throws(CryptoError) -> [UInt8] { try signatureRS256(signingInput) }
}

/// A claim's value (RFC 7519 §4): the strings and integers push providers ask for, and booleans.
public enum JWTClaimValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case boolean(Bool)
}

/// The claims of a token. The registered ones (RFC 7519 §4.1) are fields; others (FCM's
/// `scope`) go in `other`. Times are NumericDate: seconds since the Unix epoch, passed in by the
/// caller (no clock here).
public struct JWTClaims: Sendable, Equatable {
    /// `iss`: the APNs team id, the service account's `client_email`.
    public var issuer: String?
    /// `sub`: VAPID's contact, `mailto:` or `https:` (RFC 8292 §2.1).
    public var subject: String?
    /// `aud`: the push service's origin (VAPID), the `token_uri` (Google).
    public var audience: String?
    /// `iat`.
    public var issuedAt: Int64?
    /// `exp`.
    public var expiresAt: Int64?
    /// Further claims; a registered name here is ignored (the field wins).
    public var other: [String: JWTClaimValue]

    public init(issuer: String? = nil, subject: String? = nil, audience: String? = nil, issuedAt: Int64? = nil,
                expiresAt: Int64? = nil, other: [String: JWTClaimValue] = [:]) {
        self.issuer = issuer
        self.subject = subject
        self.audience = audience
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.other = other
    }

    /// The claims in the order they are written: by name, as py_vapid does ("chrome seems to
    /// require the claims to be sorted"); the order means nothing to a JWT reader otherwise.
    var members: [(String, JWTClaimValue)] {
        var all = other
        let registered: [String: JWTClaimValue?] = [
            "iss": issuer.map(JWTClaimValue.string), "sub": subject.map(JWTClaimValue.string),
            "aud": audience.map(JWTClaimValue.string), "iat": issuedAt.map(JWTClaimValue.integer),
            "exp": expiresAt.map(JWTClaimValue.integer),
        ]
        for (name, value) in registered {
            all[name] = value
        }
        return all.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

/// A JSON Web Token in the JWS Compact Serialization (RFC 7519 §7.1, RFC 7515 §7.1), signed
/// with ES256 or RS256:
///
/// ```swift
/// let token = try JWT(keyId: "ABC123DEFG", type: nil,
///                     claims: JWTClaims(issuer: teamId, issuedAt: now)).signed(with: apnsKey)
/// ```
public struct JWT: Sendable, Equatable {
    /// The JOSE header's `kid` (RFC 7515 §4.1.4): APNs wants its key id here.
    public var keyId: String?
    /// The JOSE header's `typ` (RFC 7519 §5.1), "JWT" unless set to nil.
    public var type: String?
    public var claims: JWTClaims

    public init(keyId: String? = nil, type: String? = "JWT", claims: JWTClaims) {
        self.keyId = keyId
        self.type = type
        self.claims = claims
    }

    /// `header.payload.signature`, each part base64url without padding. The header is
    /// `{"alg":…,"kid":…,"typ":…}` with `alg` taken from the key.
    public func signed(with key: some JWTSigningKey) throws(CryptoError) -> String {
        var header: [(String, JWTClaimValue)] = [("alg", .string(key.jwsAlgorithm))]
        if let keyId { header.append(("kid", .string(keyId))) }
        if let type { header.append(("typ", .string(type))) }
        let signingInput = Base64.url.encode(Self.json(header)) + "." + Base64.url.encode(Self.json(claims.members))
        let signature = try key.jwsSignature(Array(signingInput.utf8))
        return signingInput + "." + Base64.url.encode(signature)
    }

    /// A compact JSON object of the members, in the order given (HTJSON's serializer: strings
    /// escaped per RFC 8259 §7; integers within ±2^53, as RFC 8259 §6 advises for interop).
    static func json(_ members: [(String, JWTClaimValue)]) -> [UInt8] {
        JSONSerializer.bytes(.object(JSONObject(members.map { name, value in
            switch value {
            case .string(let text): (name, JSONValue.string(text))
            case .integer(let number): (name, JSONValue.number(Double(number)))
            case .boolean(let flag): (name, JSONValue.bool(flag))
            }
        })))
    }
}
