import Foundation
import Testing
import Crypto

/// Our VAPID `Authorization` header verified by py_vapid (Mozilla's library).
@Suite struct VAPIDTests {
    /// Without its atexit handler, as the daemon does (docs: it races Swift's teardown at exit).
    init() { Crypto.initialize() }

    @Test func theAuthorizationHeaderVerifiesInPyVapidWithTheEndpointsOriginAndSubject() throws {
        let keys = try PeerKeys.get()
        let vapid = try VAPID(key: P256PrivateKey(pemFile: keys.path("ec-pkcs8.pem"), source: "push.webPush.vapidKeyFile"),
                              subject: "mailto:study-it@example.org")
        let subscription = try Subscriber.make().subscription(endpoint: "https://Push.Example.NET:443/wpush/v2/gAAAAAB?x=1")
        let now = Int64(Date().timeIntervalSince1970)
        let header = try vapid.authorization(audience: subscription.origin, now: now, lifetime: 12 * 3600)
        #expect(header.hasPrefix("vapid t=") && header.hasSuffix(",k=\(vapid.publicKeyBase64URL)"))
        let verified = try PushPeer.run(["verify-vapid", header])
        #expect(verified["k"] as? String == keys.points["ec-pkcs8"])
        let claims = try #require(verified["claims"] as? [String: Any])
        #expect(claims["aud"] as? String == "https://push.example.net")
        #expect(claims["sub"] as? String == "mailto:study-it@example.org")
        #expect((claims["exp"] as? NSNumber)?.int64Value == now + 12 * 3600)
    }

    @Test func theTokenVerifiesInPyJWTAsAnES256JWTForTheAudience() throws {
        let keys = try PeerKeys.get()
        let vapid = try VAPID(key: P256PrivateKey(pemFile: keys.path("ec-sec1.pem"), source: "vapid"), subject: "https://study.example.org/contact")
        let token = try vapid.token(audience: "https://fcm.googleapis.com/fcm/send/abc", now: Int64(Date().timeIntervalSince1970))
        let verified = try PushPeer.run(["verify-jwt", "ES256", keys.path("ec-sec1.pub.pem"), token, "https://fcm.googleapis.com"])
        #expect(verified["header"] as? [String: String] == ["alg": "ES256", "typ": "JWT"])
    }

    @Test func aHeaderWithAnotherKeysPublicKeyIsRefusedByPyVapid() throws {
        let vapid = try VAPID(key: P256PrivateKey.generate(), subject: "mailto:a@example.org")
        let other = try P256PrivateKey.generate()
        let header = try vapid.authorization(audience: "https://push.example.net", now: 1_767_000_000)
        let forged = header.replacingOccurrences(of: vapid.publicKeyBase64URL, with: other.publicKeyBase64URL)
        #expect(throws: PeerRefusal.self) { try PushPeer.run(["verify-vapid", forged]) }
    }

    @Test func originsDropTheDefaultPortAndThePathAndKeepOthers() throws {
        #expect(try WebPushSubscription.origin(of: "https://updates.push.services.mozilla.com/wpush/v2/x") == "https://updates.push.services.mozilla.com")
        #expect(try WebPushSubscription.origin(of: "https://127.0.0.1:8443/push/1") == "https://127.0.0.1:8443")
        #expect(try WebPushSubscription.origin(of: "HTTPS://[::1]:443/p") == "https://[::1]")
        #expect(try WebPushSubscription.origin(of: "http://localhost:80") == "http://localhost")
        for bad in ["ftp://x/y", "https://", "https://user@host/p", "https://host:0/", "https://host:99999/", "https://host:x/"] {
            #expect(refusal { _ = try WebPushSubscription.origin(of: bad) }.isInvalidEndpoint, "\(bad)")
        }
    }

    @Test func aLifetimeOverTwentyFourHoursIsRefused() throws {
        let vapid = try VAPID(key: P256PrivateKey.generate(), subject: "mailto:a@example.org")
        #expect(throws: WebPushError.invalidLifetime(seconds: 86_401)) {
            try vapid.token(audience: "https://push.example.net", now: 0, lifetime: 86_401)
        }
        #expect(try vapid.token(audience: "https://push.example.net", now: 0, lifetime: 86_400).split(separator: ".").count == 3)
    }

    @Test func aSubjectThatIsNeitherMailtoNorHTTPSIsRefused() throws {
        let key = try P256PrivateKey.generate()
        for bad in ["study-it@example.org", "mailto:nobody", "http://example.org", "https://", "mailto:a b@example.org"] {
            #expect(throws: WebPushError.invalidSubject) { try VAPID(key: key, subject: bad) }
        }
    }
}
