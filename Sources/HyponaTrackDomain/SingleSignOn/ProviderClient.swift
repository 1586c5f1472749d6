import Crypto
import Foundation
import HTTPClient
import HTTPTypes
import Synchronization

/// What discovery says about the provider (OpenID Connect Discovery 1.0 §3).
struct ProviderMetadata: Decodable, Sendable {
    var issuer: String
    var authorization_endpoint: String
    var token_endpoint: String
    var jwks_uri: String
    var end_session_endpoint: String?
    var token_endpoint_auth_methods_supported: [String]?
    var code_challenge_methods_supported: [String]?

    /// HTTP Basic unless the provider lists only `client_secret_post` (§3: Basic is the default).
    var usesBasicAuthentication: Bool {
        guard let methods = token_endpoint_auth_methods_supported else { return true }
        return methods.contains("client_secret_basic") || !methods.contains("client_secret_post")
    }
}

/// One key of a JWK Set (RFC 7517 §4, RFC 7518 §6).
struct JWK: Decodable {
    var kty: String
    var kid: String?
    var use: String?
    var alg: String?
    var n: String?
    var e: String?
    var crv: String?
    var x: String?
    var y: String?

    /// The key, or nil for one we do not verify with (encryption keys, other types or curves).
    var publicKey: JWSPublicKey? {
        if let use, use != "sig" { return nil }
        switch kty {
        case "RSA":
            guard alg == nil || alg == "RS256", let n = n.flatMap(Base64.url.decode), let e = e.flatMap(Base64.url.decode) else { return nil }
            return try? JWSPublicKey.rsa(modulus: n, exponent: e)
        case "EC":
            guard crv == "P-256", alg == nil || alg == "ES256", let x = x.flatMap(Base64.url.decode),
                  let y = y.flatMap(Base64.url.decode) else { return nil }
            return try? JWSPublicKey.p256(x: x, y: y)
        default:
            return nil
        }
    }
}

struct JWKSet: Decodable {
    var keys: [JWK]
}

/// The token endpoint's answer (OpenID Connect Core §3.1.3.3); only the ID token is used.
struct TokenResponse: Decodable {
    var id_token: String?
}

/// The provider over the project's HTTP client (TLS verified; `caFile` for a private CA):
/// discovery, read once and kept; the key set, refetched when a token names a `kid` it lacks,
/// at most once a minute; the code exchange. Nothing here logs; errors name the step, never a
/// code, secret or token.
final class ProviderClient: Sendable {
    let configuration: ServerConfiguration.SingleSignOn
    let clientSecret: String
    let client: HTTPClient
    let clock: any ServerClock
    static let keyRefetchSeconds = 60.0

    private struct State {
        var metadata: ProviderMetadata?
        var keys: [String: JWSPublicKey] = [:]
        var unnamedKeys: [JWSPublicKey] = []
        var keysFetchedAt: Double?
    }
    private let state = Mutex(State())

    init(configuration: ServerConfiguration.SingleSignOn, clientSecret: String, clock: any ServerClock) {
        self.configuration = configuration
        self.clientSecret = clientSecret
        self.clock = clock
        client = HTTPClient(configuration: HTTPClientConfiguration(caFile: configuration.caFile, timeout: .seconds(15),
                                                                   connectTimeout: .seconds(5), maxResponseBytes: 1 << 20))
    }

    /// Discovery, fetched at first use and kept (a failure is tried again at the next sign-in).
    func metadata() throws(SingleSignOnRefusal) -> ProviderMetadata {
        if let known = state.withLock({ $0.metadata }) { return known }
        let url = configuration.issuer + "/.well-known/openid-configuration"
        let metadata: ProviderMetadata = try fetch(url, what: "discovery")
        // Discovery §4.3: the issuer it names must be the one configured, exactly.
        guard metadata.issuer == configuration.issuer else { throw .providerUnavailable("discovery names another issuer") }
        for endpoint in [metadata.authorization_endpoint, metadata.token_endpoint, metadata.jwks_uri] + (metadata.end_session_endpoint.map { [$0] } ?? [])
        where !ServerConfiguration.SingleSignOn.isSecure(endpoint) {
            throw .providerUnavailable("discovery names an endpoint that is not https://")
        }
        if let methods = metadata.code_challenge_methods_supported, !methods.contains("S256") {
            throw .providerUnavailable("the provider does not offer PKCE with S256")
        }
        state.withLock { $0.metadata = metadata }
        return metadata
    }

    /// The key for `kid`: from the kept set, else from a fresh one when the last fetch is a
    /// minute old or more (a rotated key is found; a flood of unknown kids costs one fetch a minute).
    func key(_ kid: String?) -> JWSPublicKey? {
        if let found = lookUp(kid) { return found }
        let now = clock.now()
        let due = state.withLock { s -> Bool in
            guard s.keysFetchedAt.map({ now - $0 >= Self.keyRefetchSeconds }) ?? true else { return false }
            s.keysFetchedAt = now
            return true
        }
        guard due, let metadata = try? metadata(), let set: JWKSet = try? fetch(metadata.jwks_uri, what: "key set") else { return nil }
        var named: [String: JWSPublicKey] = [:], unnamed: [JWSPublicKey] = []
        for jwk in set.keys {
            guard let key = jwk.publicKey else { continue }
            if let kid = jwk.kid { named[kid] = key } else { unnamed.append(key) }
        }
        state.withLock { s in
            s.keys = named
            s.unnamedKeys = unnamed
        }
        return lookUp(kid)
    }

    private func lookUp(_ kid: String?) -> JWSPublicKey? {
        state.withLock { s in
            if let kid { return s.keys[kid] }
            // A token without kid: only when the set has exactly one key.
            let all = Array(s.keys.values) + s.unnamedKeys
            return all.count == 1 ? all[0] : nil
        }
    }

    /// The ID token for `code` (authorisation code grant with the PKCE verifier, RFC 7636 §4.5).
    func exchange(code: String, verifier: String) throws(SingleSignOnRefusal) -> String {
        let metadata = try metadata()
        var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", configuration.redirectURL),
                      ("code_verifier", verifier)]
        var headers = HTTPHeaders()
        if metadata.usesBasicAuthentication {
            // RFC 6749 §2.3.1: the id and secret are form-encoded before Basic's base64.
            let pair = FormURLEncoding.percentEncode(configuration.clientId) + ":" + FormURLEncoding.percentEncode(clientSecret)
            headers.add(name: "Authorization", value: "Basic " + Base64.standard.encode(Array(pair.utf8)))
        } else {
            fields += [("client_id", configuration.clientId), ("client_secret", clientSecret)]
        }
        let response: HTTPClientResponse
        do { response = try client.send(.formURLEncoded(url: metadata.token_endpoint, fields: fields, headers: headers)) } catch {
            throw .providerUnavailable("token endpoint: \(error.kind)")
        }
        guard response.isSuccess else { throw .providerError("token endpoint answered \(response.status)") }
        guard let token = try? JSONDecoder().decode(TokenResponse.self, from: Data(response.body)).id_token else {
            throw .providerUnavailable("token endpoint sent no id_token")
        }
        return token
    }

    private func fetch<T: Decodable>(_ url: String, what: String) throws(SingleSignOnRefusal) -> T {
        let response: HTTPClientResponse
        do { response = try client.send(.json(method: .get, url: url, body: nil)) } catch {
            throw .providerUnavailable("\(what): \(error.kind)")
        }
        guard response.isSuccess else { throw .providerUnavailable("\(what) answered \(response.status)") }
        guard let value = try? JSONDecoder().decode(T.self, from: Data(response.body)) else { throw .providerUnavailable("\(what) is not usable") }
        return value
    }
}
