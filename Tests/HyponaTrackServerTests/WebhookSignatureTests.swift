import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Standard Webhooks signing (docs/operations.md, "Webhooks"), against the spec's published vector.
@Suite struct WebhookSignatureTests {
    static let vectorSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let vectorId = "msg_p5jXN8AQM9LWM0D4loKWxJek"
    static let vectorTimestamp: Int64 = 1_614_265_330
    static let vectorBody = Array(#"{"test": 2432232314}"#.utf8)
    static let vectorSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="

    var key: [UInt8] { WebhookSignature.decodeSecret(Self.vectorSecret)! }

    @Test func signatureMatchesThePublishedTestVector() throws {
        let signature = WebhookSignature.sign(key: key, id: Self.vectorId, timestamp: Self.vectorTimestamp, body: Self.vectorBody)
        #expect(signature == Self.vectorSignature)
    }

    @Test func secretDecodesToTheBase64PartAfterThePrefix() throws {
        #expect(key.count == 24)
        #expect(key.prefix(3) == [0x31, 0xF2, 0x90])   // "MfKQ" = 0x31 0xF2 0x90
        // A trailing newline (as in a secret file) is ignored.
        #expect(WebhookSignature.decodeSecret(Self.vectorSecret + "\n") == key)
    }

    @Test func malformedSecretsAreRejected() {
        #expect(WebhookSignature.decodeSecret("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") == nil)          // no prefix
        #expect(WebhookSignature.decodeSecret("whsec_") == nil)                                    // no key
        #expect(WebhookSignature.decodeSecret("whsec_MfKQ9r8G*YqrTwjUPD8ILPZIo2LaLaSw") == nil)    // not base64
        #expect(WebhookSignature.decodeSecret("whsec_MfKQ9r8G") == nil)                            // too short a key
        #expect(WebhookSignature.decodeSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS") == nil)     // truncated
    }

    @Test func generatedSecretsRoundTripWithEnoughEntropy() throws {
        let a = try WebhookSignature.generateSecret(), b = try WebhookSignature.generateSecret()
        #expect(a.hasPrefix("whsec_") && a != b)
        let decoded = try #require(WebhookSignature.decodeSecret(a))
        #expect((24...32).contains(decoded.count))
    }

    @Test func verifyAcceptsAnyV1EntryOfARotationList() {
        let other = [UInt8](repeating: 7, count: 32)
        let old = WebhookSignature.sign(key: other, id: Self.vectorId, timestamp: Self.vectorTimestamp, body: Self.vectorBody)
        for header in ["\(Self.vectorSignature)", "\(old) \(Self.vectorSignature)", "v2,abc \(Self.vectorSignature) \(old)",
                       "  \(Self.vectorSignature)  "] {
            #expect(WebhookSignature.verify(key: key, id: Self.vectorId, timestamp: Self.vectorTimestamp, body: Self.vectorBody,
                                            signatureHeader: header), "header \(header)")
        }
        #expect(!WebhookSignature.verify(key: key, id: Self.vectorId, timestamp: Self.vectorTimestamp, body: Self.vectorBody,
                                         signatureHeader: old))
        // The same MAC under another version tag does not count.
        #expect(!WebhookSignature.verify(key: key, id: Self.vectorId, timestamp: Self.vectorTimestamp, body: Self.vectorBody,
                                         signatureHeader: "v1a," + Self.vectorSignature.dropFirst(3)))
    }

    @Test func tamperedBodyIdOrTimestampFailsVerification() {
        var body = Self.vectorBody
        body[body.count - 2] ^= 1
        #expect(!WebhookSignature.verify(key: key, id: Self.vectorId, timestamp: Self.vectorTimestamp, body: body,
                                         signatureHeader: Self.vectorSignature))
        #expect(!WebhookSignature.verify(key: key, id: Self.vectorId + "x", timestamp: Self.vectorTimestamp, body: Self.vectorBody,
                                         signatureHeader: Self.vectorSignature))
        #expect(!WebhookSignature.verify(key: key, id: Self.vectorId, timestamp: Self.vectorTimestamp + 1, body: Self.vectorBody,
                                         signatureHeader: Self.vectorSignature))
        #expect(!WebhookSignature.verify(key: key, id: Self.vectorId, timestamp: Self.vectorTimestamp, body: Self.vectorBody,
                                         signatureHeader: ""))
    }
}
