import Foundation
import Testing
import Crypto
@testable import HyponaTrackDomain

/// The ID token checks (OpenID Connect Core §3.1.3.7) with tokens this test signs, forges or
/// alters: a good RS256 and ES256 token passes; a wrong signature, `aud`, `iss`, an expired
/// token, a wrong `nonce`, a `kid` the key set lacks, `alg: none`, HS256 and a swapped algorithm
/// are each refused, naming the check. Keys are made by the openssl CLI and by libcrypto; the
/// token's signature by the product's JWT signer, so the verifier is checked against a signer
/// it does not share code with beyond OpenSSL.
@Suite struct IDTokenValidatorTests {
    static let issuer = "https://id.example.org/realms/ward"
    static let validator = IDTokenValidator(issuer: issuer, clientId: "hyponatrack", groupsClaim: "groups")
    static let now = 1_800_000_000.0

    /// An RSA key of 2048 bits from the openssl CLI, and its public half from the modulus it prints.
    static let rsa: (RSAPrivateKey, JWSPublicKey) = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("idtoken-rsa-\(UUID().uuidString).pem").path
        let made = shell("openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out '\(path)' 2>/dev/null && chmod 600 '\(path)'")
        precondition(made.status == 0)
        let modulusHex = shell("openssl rsa -in '\(path)' -noout -modulus").output
            .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "Modulus=", with: "")
        let key = try! RSAPrivateKey(pemFile: path, source: "test key")
        let publicKey = try! JWSPublicKey.rsa(modulus: Crypto.bytes(hex: modulusHex.lowercased())!, exponent: [1, 0, 1])
        return (key, publicKey)
    }()

    static let ec: (P256PrivateKey, JWSPublicKey) = {
        let key = try! P256PrivateKey.generate()
        let point = key.publicKey
        return (key, try! JWSPublicKey.p256(x: Array(point[1...32]), y: Array(point[33...64])))
    }()

    static func shell(_ command: String) -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        let pipe = Pipe()
        p.standardOutput = pipe
        try! p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func claims(iss: String = issuer, aud: String = "hyponatrack", exp: Double = now + 300, iat: Double = now - 5,
                       nonce: String = "n-123") -> JWTClaims {
        JWTClaims(issuer: iss, subject: "subject-1", audience: aud, issuedAt: Int64(iat), expiresAt: Int64(exp),
                  other: ["nonce": .string(nonce), "preferred_username": .string("anna.nurse"), "groups": .string("ward-nurses")])
    }

    static func keys(_ kid: String?) -> JWSPublicKey? {
        switch kid {
        case "rsa-1": rsa.1
        case "ec-1": ec.1
        default: nil
        }
    }

    func validate(_ token: String, nonce: String = "n-123") throws(SingleSignOnRefusal) -> IDTokenClaims {
        try Self.validator.validate(token, nonce: nonce, now: Self.now, key: Self.keys)
    }

    func refusal(_ token: String, nonce: String = "n-123") -> SingleSignOnRefusal? {
        do { _ = try validate(token, nonce: nonce); return nil } catch { return error }
    }

    @Test func aTokenSignedRS256ByAKeyOfTheSetPassesWithItsClaims() throws {
        let token = try JWT(keyId: "rsa-1", claims: Self.claims()).signed(with: Self.rsa.0)
        let claims = try validate(token)
        #expect(claims == IDTokenClaims(subject: "subject-1", username: "anna.nurse", groups: ["ward-nurses"]))
    }

    @Test func aTokenSignedES256ByAKeyOfTheSetPasses() throws {
        let token = try JWT(keyId: "ec-1", claims: Self.claims()).signed(with: Self.ec.0)
        #expect(try validate(token).subject == "subject-1")
    }

    @Test func aTokenWithinTheSixtySecondSkewPassesAndBeyondItIsRefused() throws {
        let justExpired = try JWT(keyId: "ec-1", claims: Self.claims(exp: Self.now - 50)).signed(with: Self.ec.0)
        #expect(refusal(justExpired) == nil)
        let expired = try JWT(keyId: "ec-1", claims: Self.claims(exp: Self.now - 61)).signed(with: Self.ec.0)
        #expect(refusal(expired) == .invalidToken("exp"))
        let future = try JWT(keyId: "ec-1", claims: Self.claims(iat: Self.now + 120)).signed(with: Self.ec.0)
        #expect(refusal(future) == .invalidToken("iat"))
    }

    @Test func aWrongAudienceIssuerOrNonceIsRefusedNamingTheClaim() throws {
        #expect(refusal(try JWT(keyId: "rsa-1", claims: Self.claims(aud: "another-client")).signed(with: Self.rsa.0)) == .invalidToken("aud"))
        #expect(refusal(try JWT(keyId: "rsa-1", claims: Self.claims(iss: Self.issuer + "x")).signed(with: Self.rsa.0)) == .invalidToken("iss"))
        let token = try JWT(keyId: "rsa-1", claims: Self.claims()).signed(with: Self.rsa.0)
        #expect(refusal(token, nonce: "n-124") == .invalidToken("nonce"))
    }

    @Test func anAlteredPayloadOrSignatureFailsTheSignature() throws {
        let token = try JWT(keyId: "rsa-1", claims: Self.claims()).signed(with: Self.rsa.0)
        let parts = token.split(separator: ".").map(String.init)
        // The same header and signature over other claims (another subject).
        let forged = Base64.url.encode(Array(String(decoding: Base64.url.decode(parts[1])!, as: UTF8.self)
            .replacingOccurrences(of: "subject-1", with: "subject-2").utf8))
        #expect(refusal([parts[0], forged, parts[2]].joined(separator: ".")) == .invalidToken("signature"))
        var signature = Base64.url.decode(parts[2])!
        signature[10] ^= 0x01
        #expect(refusal([parts[0], parts[1], Base64.url.encode(signature)].joined(separator: ".")) == .invalidToken("signature"))
        // A token signed by a key outside the set, under a kid the set has.
        let stranger = try P256PrivateKey.generate()
        #expect(refusal(try JWT(keyId: "ec-1", claims: Self.claims()).signed(with: stranger)) == .invalidToken("signature"))
    }

    @Test func aKidTheKeySetLacksIsRefused() throws {
        let token = try JWT(keyId: "rotated-away", claims: Self.claims()).signed(with: Self.rsa.0)
        #expect(refusal(token) == .invalidToken("kid not in the provider's key set"))
    }

    @Test func algNoneHS256AndASwappedAlgorithmAreRefusedBeforeAnyKeyIsUsed() throws {
        let token = try JWT(keyId: "rsa-1", claims: Self.claims()).signed(with: Self.rsa.0)
        let payload = token.split(separator: ".")[1]
        func header(_ json: String) -> String { Base64.url.encode(Array(json.utf8)) }
        let none = header(#"{"alg":"none","kid":"rsa-1"}"#) + "." + payload + "."
        #expect(refusal(none) == .invalidToken("alg none is not RS256 or ES256"))
        let hs256 = header(#"{"alg":"HS256","kid":"rsa-1"}"#) + "." + payload + "." + Base64.url.encode(Crypto.hmacSHA256(key: [1, 2, 3], message: [4]))
        #expect(refusal(hs256) == .invalidToken("alg HS256 is not RS256 or ES256"))
        // An ES256 header on the RSA key's kid: the key decides the algorithm, not the token.
        let swapped = header(#"{"alg":"ES256","kid":"rsa-1"}"#) + "." + payload + "." + token.split(separator: ".")[2]
        #expect(refusal(swapped) == .invalidToken("alg ES256 does not fit the key"))
    }

    @Test func garbageIsRefusedAsNotACompactJWS() {
        for garbage in ["", "a.b", "a.b.c.d", "!!.??.##"] {
            #expect(refusal(garbage) == .invalidToken("not a compact JWS"), "\(garbage)")
        }
    }

    @Test func anRSAKeyShorterThan2048BitsIsNotAcceptedFromAKeySet() {
        #expect(throws: KeyError.self) { try JWSPublicKey.rsa(modulus: [UInt8](repeating: 0xC3, count: 128), exponent: [1, 0, 1]) }
    }
}
