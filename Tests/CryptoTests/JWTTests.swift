import Foundation
import Testing
import Crypto

/// Our JWTs verified by PyJWT with the public keys `cryptography` wrote.
@Suite struct JWTTests {
    /// Without its atexit handler, as the daemon does (docs: it races Swift's teardown at exit).
    init() { Crypto.initialize() }

    let now: Int64 = 1_767_000_000

    @Test func anAPNsProviderTokenFromAP8KeyVerifiesInPyJWT() throws {
        let keys = try PeerKeys.get()
        let key = try P256PrivateKey(pemFile: keys.path("ec-pkcs8.pem"), source: "push.apns.keyFile")
        let token = try JWT(keyId: "ABC123DEFG", type: nil, claims: JWTClaims(issuer: "DEF123GHIJ", issuedAt: now)).signed(with: key)
        let verified = try PushPeer.run(["verify-jwt", "ES256", keys.path("ec-pkcs8.pub.pem"), token])
        #expect(verified["header"] as? [String: String] == ["alg": "ES256", "kid": "ABC123DEFG"])
        let claims = try #require(verified["claims"] as? [String: Any])
        #expect(claims["iss"] as? String == "DEF123GHIJ")
        #expect((claims["iat"] as? NSNumber)?.int64Value == now)
        #expect(claims.count == 2)
    }

    @Test func anES256TokenFromASEC1KeyVerifiesInPyJWT() throws {
        let keys = try PeerKeys.get()
        let key = try P256PrivateKey(pemFile: keys.path("ec-sec1.pem"), source: "vapid")
        let token = try JWT(claims: JWTClaims(subject: "mailto:it@example.org", audience: "https://push.example.net",
                                              expiresAt: Int64(Date().timeIntervalSince1970) + 3600)).signed(with: key)
        let verified = try PushPeer.run(["verify-jwt", "ES256", keys.path("ec-sec1.pub.pem"), token, "https://push.example.net"])
        #expect(verified["header"] as? [String: String] == ["alg": "ES256", "typ": "JWT"])
    }

    @Test func anES256TokenSignedByAnotherKeyIsRefusedByPyJWT() throws {
        let keys = try PeerKeys.get()
        let key = try P256PrivateKey(pemFile: keys.path("ec-sec1.pem"), source: "vapid")
        let token = try JWT(claims: JWTClaims(issuer: "x", issuedAt: now)).signed(with: key)
        #expect(throws: PeerRefusal.self) { try PushPeer.run(["verify-jwt", "ES256", keys.path("ec-pkcs8.pub.pem"), token]) }
    }

    @Test func theES256SignatureIsTheJOSEPairNotDER() throws {
        let key = try P256PrivateKey.generate()
        let token = try JWT(claims: JWTClaims(issuer: "x")).signed(with: key)
        let signature = try #require(Base64.url.decode(String(token.split(separator: ".")[2])))
        #expect(signature.count == 64)                     // DER would be 70–72 bytes, starting 0x30
        #expect(try key.signatureES256(Array("m".utf8)).count == 64)
    }

    @Test func anFCMAssertionSignedRS256VerifiesInPyJWTWithItsClaims() throws {
        let keys = try PeerKeys.get()
        let key = try RSAPrivateKey(pemFile: keys.path("rsa.pem"), source: "push.fcm.serviceAccountFile")
        let issued = Int64(Date().timeIntervalSince1970)
        let claims = JWTClaims(issuer: "hyponatrack@study.iam.gserviceaccount.com", audience: "https://oauth2.googleapis.com/token",
                               issuedAt: issued, expiresAt: issued + 3600,
                               other: ["scope": .string("https://www.googleapis.com/auth/firebase.messaging")])
        let token = try JWT(claims: claims).signed(with: key)
        let verified = try PushPeer.run(["verify-jwt", "RS256", keys.path("rsa.pub.pem"), token, "https://oauth2.googleapis.com/token"])
        #expect(verified["header"] as? [String: String] == ["alg": "RS256", "typ": "JWT"])
        let decoded = try #require(verified["claims"] as? [String: Any])
        #expect(decoded["iss"] as? String == "hyponatrack@study.iam.gserviceaccount.com")
        #expect(decoded["scope"] as? String == "https://www.googleapis.com/auth/firebase.messaging")
        #expect((decoded["exp"] as? NSNumber)?.int64Value == issued + 3600)
    }

    @Test func claimsWithQuotesControlCharactersAndUnicodeRoundTripThroughPyJWT() throws {
        let keys = try PeerKeys.get()
        let key = try P256PrivateKey(pemFile: keys.path("ec-pkcs8.pem"), source: "k")
        let awkward = "a \"quoted\" \\ back\\slash, tab\t, newline\n, bell\u{07}, Größe ✓"
        let token = try JWT(claims: JWTClaims(issuer: awkward, other: ["flag": .boolean(true), "n": .integer(-5)])).signed(with: key)
        let verified = try PushPeer.run(["verify-jwt", "ES256", keys.path("ec-pkcs8.pub.pem"), token])
        let decoded = try #require(verified["claims"] as? [String: Any])
        #expect(decoded["iss"] as? String == awkward)
        #expect(decoded["flag"] as? Bool == true)
        #expect((decoded["n"] as? NSNumber)?.intValue == -5)
    }

    @Test func aRegisteredClaimInOtherDoesNotOverrideItsField() throws {
        let key = try P256PrivateKey.generate()
        let token = try JWT(claims: JWTClaims(issuer: "team", other: ["iss": .string("spoof"), "exp": .integer(1)])).signed(with: key)
        let payload = try #require(Base64.url.decode(String(token.split(separator: ".")[1])))
        #expect(String(decoding: payload, as: UTF8.self) == #"{"iss":"team"}"#)
    }
}
