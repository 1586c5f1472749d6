import Testing
import Crypto

/// RFC 4648 base64 in both alphabets (tokens, JWTs and Web Push keys; webhook secrets and MIME).
@Suite struct Base64Tests {
    @Test func theURLAlphabetMatchesTheRFC4648VectorsWithoutPadding() {
        // RFC 4648 §10 vectors, in the URL-safe alphabet and without padding.
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (input, expected) in vectors {
            #expect(Base64.url.encode(Array(input.utf8)) == expected)
            #expect(Base64.url.decode(expected) == Array(input.utf8))
        }
        #expect(Base64.url.encode([0xfb, 0xff]) == "-_8")
    }

    @Test func theStandardAlphabetPadsAndRoundTripsEveryLength() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Base64.standard.encode(bytes)
            #expect(text.count == (length + 2) / 3 * 4)
            #expect(Base64.standard.decode(text) == bytes)
        }
        #expect(Base64.standard.encode(Array("Man".utf8)) == "TWFu")
        #expect(Base64.standard.encode(Array("Ma".utf8)) == "TWE=")
        #expect(Base64.standard.encode([0xfb, 0xff]) == "+/8=")
        #expect(Base64.standard.decode("TWE") == Array("Ma".utf8))        // padding optional
    }

    @Test func theURLAlphabetRoundTripsEveryLengthAndTakesOptionalPadding() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 250) }
            let text = Base64.url.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64.url.decode(text) == bytes)
        }
        #expect(Base64.url.decode("BTBZMqHH6r4Tts7J_aSIgg==") == Base64.url.decode("BTBZMqHH6r4Tts7J_aSIgg"))
    }

    @Test func eachAlphabetRefusesTheOthersSymbolsAndBrokenLengthsOrPadding() {
        #expect(Base64.url.decode("a+b/") == nil)
        #expect(Base64.standard.decode("a-b_") == nil)
        for bad in ["T", "abcde", "TW=E", "TWE===", "TQ=", "TWF u", "TWF="] {
            #expect(Base64.standard.decode(bad) == nil, "\(bad)")
        }
        #expect(Base64.url.decode("TR") == nil)                          // leftover bits not zero
    }
}
