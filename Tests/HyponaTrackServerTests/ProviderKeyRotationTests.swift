import Foundation
import Testing
import Crypto
import HTTPServer
import Synchronization
@testable import HyponaTrackDomain

/// The provider's key set (OpenID Connect Core §10.1.1, key rotation): kept, fetched again when
/// a token names a `kid` it lacks, but at most once a minute, so a flood of tokens with made-up
/// kids costs the provider one request a minute. A real libmicrohttpd server plays the provider's
/// discovery and JWKS endpoints; the clock is the test's.
@Suite struct ProviderKeyRotationTests {
    final class Clock: ServerClock {
        let value = Mutex(1_800_000_000.0)
        func now() -> Double { value.withLock { $0 } }
        func advance(_ seconds: Double) { value.withLock { $0 += seconds } }
    }

    /// Discovery and a JWK Set the test changes, counting the key set's fetches.
    final class Shared: Sendable {
        let keys = Mutex<[(String, P256PrivateKey)]>([])
        let fetches = Mutex(0)
        let base = Mutex("")
    }

    final class Provider: Sendable {
        let shared = Shared()
        let server: HTTPServer

        init() throws {
            var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, handlerThreads: 2, maxBodyBytes: 4096)
            configuration.connectionTimeoutSeconds = 10
            let shared = self.shared
            server = try HTTPServer(configuration: configuration) { request in
                let base = shared.base.withLock { $0 }
                if request.path == "/.well-known/openid-configuration" {
                    return HTTPResponse(status: .ok, contentType: "application/json", text: """
                        {"issuer": "\(base)", "authorization_endpoint": "\(base)/auth", "token_endpoint": "\(base)/token",
                         "jwks_uri": "\(base)/jwks", "code_challenge_methods_supported": ["S256"]}
                        """)
                }
                if request.path == "/jwks" {
                    shared.fetches.withLock { $0 += 1 }
                    let set = shared.keys.withLock { $0 }.map { kid, key in
                        let point = key.publicKey
                        return #"{"kty": "EC", "crv": "P-256", "use": "sig", "kid": "\#(kid)", "x": "\#(Base64.url.encode(point[1...32]))", "y": "\#(Base64.url.encode(point[33...64]))"}"#
                    }
                    return HTTPResponse(status: .ok, contentType: "application/json", text: #"{"keys": [\#(set.joined(separator: ","))]}"#)
                }
                return HTTPResponse(status: .notFound, contentType: "text/plain", text: "no")
            }
            shared.base.withLock { $0 = "http://127.0.0.1:\(server.boundPort)" }
        }

        var issuer: String { "http://127.0.0.1:\(server.boundPort)" }
    }

    @Test func anUnknownKidFetchesTheKeySetAgainAtMostOnceAMinute() throws {
        let provider = try Provider()
        defer { _ = provider.server.stop(timeout: .seconds(5)) }
        let first = try P256PrivateKey.generate(), second = try P256PrivateKey.generate()
        provider.shared.keys.withLock { $0 = [("k1", first)] }
        let clock = Clock()
        let client = ProviderClient(configuration: .init(issuer: provider.issuer, clientId: "c",
                                                         redirectURL: "http://127.0.0.1/console/oidc/callback"),
                                    clientSecret: "s", clock: clock)
        #expect(client.key("k1")?.algorithm == .es256)
        #expect(provider.shared.fetches.withLock { $0 } == 1)
        // The provider rotates to k2. Within the minute an unknown kid fetches nothing.
        provider.shared.keys.withLock { $0 = [("k2", second)] }
        clock.advance(30)
        #expect(client.key("k2") == nil)
        #expect(provider.shared.fetches.withLock { $0 } == 1)
        // A minute after the last fetch, the unknown kid fetches the set once and is found.
        clock.advance(31)
        let rotated = try #require(client.key("k2"))
        #expect(provider.shared.fetches.withLock { $0 } == 2)
        // The rotated key verifies a token the new key signed; the old kid is gone.
        let token = try JWT(keyId: "k2", claims: JWTClaims(issuer: "x")).signed(with: second)
        let parts = token.split(separator: ".")
        #expect(rotated.verifies(Base64.url.decode(String(parts[2]))!, over: Array("\(parts[0]).\(parts[1])".utf8)))
        #expect(client.key("k1") == nil)
        // A flood of made-up kids right after costs nothing more.
        for i in 0..<20 { #expect(client.key("made-up-\(i)") == nil) }
        #expect(provider.shared.fetches.withLock { $0 } == 2)
    }
}
