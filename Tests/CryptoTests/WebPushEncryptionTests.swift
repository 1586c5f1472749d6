import Foundation
import Testing
@testable import Crypto

/// Our `aes128gcm` Web Push bodies decrypted by http_ece with the subscriber's private key and
/// auth secret: the only proof taken is the third party's (or the RFC's published example).
@Suite struct WebPushEncryptionTests {
    /// Without its atexit handler, as the daemon does (docs: it races Swift's teardown at exit).
    init() { Crypto.initialize() }

    let reminder = Array(#"{"title":"HyponaTrack","body":"Time for your evening check.","kind":"evening","date":"2026-12-06","slot":"evening"}"#.utf8)

    @Test func httpEceDecryptsAReminderWithTheSubscribersKeyAndAuthSecret() throws {
        let subscriber = try Subscriber.make()
        let body = try WebPush.encrypt(reminder, for: subscriber.subscription())
        #expect(try subscriber.decrypt(body) == reminder)
    }

    @Test func theHeaderCarriesASaltRecordSize4096AndTheEphemeralPublicKey() throws {
        let subscriber = try Subscriber.make()
        let body = try WebPush.encrypt(reminder, for: subscriber.subscription())
        #expect(Array(body[16..<20]) == [0x00, 0x00, 0x10, 0x00])
        #expect(body[20] == 65)
        #expect(body[21] == 0x04)
        #expect(body.count == 86 + reminder.count + 1 + 16)
    }

    @Test func everyMessageHasAFreshSaltAndEphemeralKey() throws {
        let subscriber = try Subscriber.make()
        let first = try WebPush.encrypt(reminder, for: subscriber.subscription())
        let second = try WebPush.encrypt(reminder, for: subscriber.subscription())
        #expect(first[0..<16] != second[0..<16])
        #expect(first[21..<86] != second[21..<86])
        #expect(try subscriber.decrypt(second) == reminder)
    }

    @Test func theLargestPayloadFillsOneRecordAndDecrypts() throws {
        let subscriber = try Subscriber.make()
        let payload = [UInt8](repeating: UInt8(ascii: "x"), count: WebPush.maximumPayloadLength)
        let body = try WebPush.encrypt(payload, for: subscriber.subscription())
        #expect(body.count == 4096)
        #expect(try subscriber.decrypt(body) == payload)
    }

    @Test func aPaddedMessageDecryptsToThePayloadAlone() throws {
        let subscriber = try Subscriber.make()
        let body = try WebPush.encrypt(reminder, for: subscriber.subscription(), padding: 200)
        #expect(body.count == 86 + reminder.count + 1 + 200 + 16)
        #expect(try subscriber.decrypt(body) == reminder)
    }

    @Test func aPayloadOverOneRecordIsRefused() throws {
        let subscriber = try Subscriber.make()
        let subscription = try subscriber.subscription()
        let payload = [UInt8](repeating: 0x41, count: WebPush.maximumPayloadLength + 1)
        #expect(refusal { _ = try WebPush.encrypt(payload, for: subscription) } == .payloadTooLarge(bytes: 3994, limit: 3993))
        #expect(refusal { _ = try WebPush.encrypt(Array(payload.dropLast(10)), for: subscription, padding: 10) }
                == .payloadTooLarge(bytes: 3994, limit: 3993))
    }

    /// RFC 8291 Appendix A, "Push Message Encryption Example": with the sender's key and the
    /// salt fixed, the body must be the RFC's byte for byte.
    @Test func theRFC8291AppendixAExampleEncryptsToThePublishedBody() throws {
        let scalar = try #require(Base64.url.decode("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
        // RFC 5915 ECPrivateKey { version 1, privateKey, [0] prime256v1 }; OpenSSL derives the point.
        let der: [UInt8] = [0x30, 0x31, 0x02, 0x01, 0x01, 0x04, 0x20] + scalar
            + [0xA0, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        let pem = "-----BEGIN EC PRIVATE KEY-----\n\(Data(der).base64EncodedString())\n-----END EC PRIVATE KEY-----\n"
        let sender = try P256PrivateKey(pem: Array(pem.utf8), source: "RFC 8291 as_private")
        #expect(sender.publicKeyBase64URL
                == "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")
        let subscription = try WebPushSubscription(
            endpoint: "https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV",
            p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
            auth: "BTBZMqHH6r4Tts7J_aSIgg")
        let body = try WebPush.encrypt(Array("When I grow up, I want to be a watermelon".utf8), for: subscription, padding: 0,
                                       senderKey: sender, salt: try #require(Base64.url.decode("DGv6ra1nlYgDCS1FRnbzlw")))
        #expect(Base64.url.encode(body) == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
    }
}

/// Subscriptions a browser never makes.
@Suite struct WebPushSubscriptionRefusalTests {
    /// Without its atexit handler, as the daemon does (docs: it races Swift's teardown at exit).
    init() { Crypto.initialize() }

    let auth = "BTBZMqHH6r4Tts7J_aSIgg"
    let p256dh = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"

    let offTheCurve = WebPushError.invalidPublicKey(reason: "p256dh is not a point on the P-256 curve")

    @Test func aP256dhThatIsNotAPointOnTheCurveIsRefused() {
        // X = 1, Y = 1: the right shape, but y² ≠ x³ − 3x + b.
        let offCurve = Base64.url.encode([0x04] + [UInt8](repeating: 0, count: 31) + [1] + [UInt8](repeating: 0, count: 31) + [1])
        #expect(refusal { _ = try WebPushSubscription(endpoint: "https://push.example.net/p", p256dh: offCurve, auth: auth) } == offTheCurve)
        // The valid point with its last byte changed.
        var point = Base64.url.decode(p256dh)!
        point[64] ^= 0x01
        #expect(refusal { _ = try WebPushSubscription(endpoint: "https://push.example.net/p", p256dh: Base64.url.encode(point), auth: auth) } == offTheCurve)
    }

    @Test func aCompressedOrShortOrNonBase64URLP256dhIsRefused() {
        let compressed = Base64.url.encode([0x02] + Base64.url.decode(p256dh)![1..<33])
        for bad in [compressed, String(p256dh.dropLast(4)), "BCVxsr7N+eNg/VRqv", ""] {
            #expect(refusal { _ = try WebPushSubscription(endpoint: "https://push.example.net/p", p256dh: bad, auth: auth) }.isInvalidPublicKey)
        }
    }

    @Test func anAuthSecretThatIsNotSixteenBytesIsRefused() {
        for bad in ["BTBZMqHH6r4Tts7J_aSI", "BTBZMqHH6r4Tts7J_aSIggAA", "not base64url!"] {
            #expect(refusal { _ = try WebPushSubscription(endpoint: "https://push.example.net/p", p256dh: p256dh, auth: bad) } == .invalidAuthSecret)
        }
    }

    @Test func anEndpointThatIsNotHTTPSIsRefused() {
        for bad in ["http://push.example.net/p", "push.example.net/p", "https:///p"] {
            #expect(refusal { _ = try WebPushSubscription(endpoint: bad, p256dh: p256dh, auth: auth) }.isInvalidEndpoint)
        }
    }
}

/// The `WebPushError` `body` throws; nil when it succeeds (another error fails the test).
func refusal(_ body: () throws -> Void) -> WebPushError? {
    do {
        try body()
        return nil
    } catch let error as WebPushError {
        return error
    } catch {
        Issue.record("unexpected \(error)")
        return nil
    }
}

extension Optional where Wrapped == WebPushError {
    var isInvalidPublicKey: Bool { if case .invalidPublicKey? = self { true } else { false } }
    var isInvalidEndpoint: Bool { if case .invalidEndpoint? = self { true } else { false } }
}
