import Crypto
import Foundation

/// Why a sign-in through the provider is refused. The page says which (in the member's
/// language); the log names the case, never a code, token or claim value beyond the username.
public enum SingleSignOnRefusal: Error, Sendable, Equatable {
    /// The browser came back without the pre-session the start set, with another `state`, or a
    /// second time with the same one (a replay), or too late.
    case unknownState
    /// The provider answered with an error (`error=access_denied` …), named here.
    case providerError(String)
    /// The provider could not be reached or answered something unusable.
    case providerUnavailable(String)
    /// The ID token failed a check: its signature, `alg`, `kid`, `iss`, `aud`, `exp`, `iat`, `nonce`.
    case invalidToken(String)
    /// The username claim is missing or not a staff name (and not mapped by `usernames`).
    case invalidUsername
    /// Nobody of that name, and the groups map to no role.
    case noRole
    /// The groups map to a role but to no site, and the study has several.
    case noSite
    /// The member is revoked.
    case revoked
    /// The staff name is bound to another subject of the provider (or the subject to another name).
    case boundElsewhere

    /// A short stable word for the log and the audit trail.
    public var code: String {
        switch self {
        case .unknownState: "unknown_state"
        case .providerError: "provider_error"
        case .providerUnavailable: "provider_unavailable"
        case .invalidToken: "invalid_token"
        case .invalidUsername: "invalid_username"
        case .noRole: "no_role"
        case .noSite: "no_site"
        case .revoked: "revoked"
        case .boundElsewhere: "bound_elsewhere"
        }
    }
}

/// The claims of a verified ID token that sign-in uses.
public struct IDTokenClaims: Sendable, Equatable {
    public var subject: String
    public var username: String?
    public var groups: [String]
}

/// One claim's value, typed (no JSON value crosses the domain).
enum ClaimValue: Decodable, Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case strings([String])
    case other

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let s = try? c.decode(String.self) { self = .string(s) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let a = try? c.decode([String].self) { self = .strings(a) }
        else { self = .other }
    }

    var string: String? { if case .string(let s) = self { s } else { nil } }
    var number: Double? { if case .number(let n) = self { n } else { nil } }
}

/// Checks an ID token (OpenID Connect Core §3.1.3.7): a JWS in compact form signed with RS256
/// or ES256 by a key of the provider's JWKS (chosen by `kid`), `iss` the configured issuer, `aud`
/// containing the client (and `azp` the client when several audiences), `exp` not past and `iat`
/// not in the future (60 s skew each way), `nonce` the one the start bound to the pre-session.
/// `auth_time` is not checked (settled T).
public struct IDTokenValidator: Sendable {
    public let issuer: String
    public let clientId: String
    public let skewSeconds: Double = 60
    /// The claim with the staff name, and the one with the groups.
    public let usernameClaim: String
    public let groupsClaim: String?

    public init(issuer: String, clientId: String, usernameClaim: String = "preferred_username", groupsClaim: String? = nil) {
        self.issuer = issuer
        self.clientId = clientId
        self.usernameClaim = usernameClaim
        self.groupsClaim = groupsClaim
    }

    struct Header: Decodable {
        var alg: String?
        var kid: String?
        var crit: [String]?
    }

    /// The claims of `token`, or the refusal. `key` answers the key for a `kid` (nil: unknown,
    /// after the one refetch the key set allows) and the algorithm it must be used with.
    public func validate(_ token: String, nonce: String, now: Double,
                         key: (_ kid: String?) -> JWSPublicKey?) throws(SingleSignOnRefusal) -> IDTokenClaims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, token.utf8.count <= 64 * 1024,
              let headerBytes = Base64.url.decode(String(parts[0])), let payload = Base64.url.decode(String(parts[1])),
              let signature = Base64.url.decode(String(parts[2])) else { throw .invalidToken("not a compact JWS") }
        guard let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes)) else { throw .invalidToken("header") }
        guard let name = header.alg, let alg = JWSAlgorithm(rawValue: name) else {
            throw .invalidToken("alg \(header.alg ?? "missing") is not RS256 or ES256")
        }
        guard header.crit == nil else { throw .invalidToken("crit header") }
        guard let publicKey = key(header.kid) else { throw .invalidToken("kid not in the provider's key set") }
        guard publicKey.algorithm == alg else { throw .invalidToken("alg \(alg.rawValue) does not fit the key") }
        let signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        guard publicKey.verifies(signature, over: signingInput) else { throw .invalidToken("signature") }
        guard let claims = try? JSONDecoder().decode([String: ClaimValue].self, from: Data(payload)) else { throw .invalidToken("claims") }
        guard claims["iss"]?.string == issuer else { throw .invalidToken("iss") }
        let audiences: [String]
        switch claims["aud"] {
        case .string(let one): audiences = [one]
        case .strings(let many): audiences = many
        default: throw .invalidToken("aud")
        }
        guard audiences.contains(clientId) else { throw .invalidToken("aud") }
        if audiences.count > 1, claims["azp"]?.string != clientId { throw .invalidToken("azp") }
        guard let exp = claims["exp"]?.number, exp + skewSeconds > now else { throw .invalidToken("exp") }
        guard let iat = claims["iat"]?.number, iat - skewSeconds <= now else { throw .invalidToken("iat") }
        guard let tokenNonce = claims["nonce"]?.string,
              Crypto.constantTimeEquals(Array(tokenNonce.utf8), Array(nonce.utf8)) else { throw .invalidToken("nonce") }
        guard let sub = claims["sub"]?.string, !sub.isEmpty, sub.utf8.count <= 255 else { throw .invalidToken("sub") }
        var groups: [String] = []
        if let groupsClaim {
            switch claims[groupsClaim] {
            case .strings(let list): groups = list
            case .string(let one): groups = [one]
            default: groups = []
            }
        }
        return IDTokenClaims(subject: sub, username: claims[usernameClaim]?.string, groups: groups)
    }
}
