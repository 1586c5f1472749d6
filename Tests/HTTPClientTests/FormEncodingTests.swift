import HTTPClient
import Testing

@Suite struct FormEncodingTests {
    @Test func reservedAndNonASCIICharactersArePercentEncoded() {
        #expect(FormURLEncoding.encode([("a b&c=d/ü+%", "x y")]) == "a%20b%26c%3Dd%2F%C3%BC%2B%25=x%20y")
    }

    @Test func unreservedCharactersStayAsTheyAre() {
        let unreserved = "ABCXYZabcxyz0189-._~"
        #expect(FormURLEncoding.percentEncode(unreserved) == unreserved)
        #expect(FormURLEncoding.percentEncode("*'()!;:@$,") == "%2A%27%28%29%21%3B%3A%40%24%2C")
    }

    @Test func pairsKeepOrderAndRepeatedNames() {
        let encoded = FormURLEncoding.encode([("format", "json"), ("fields[]", "a"), ("fields[]", "b"), ("empty", "")])
        #expect(encoded == "format=json&fields%5B%5D=a&fields%5B%5D=b&empty=")
    }

    @Test func formRequestIsAPostWithTheFormContentType() {
        let request = HTTPClientRequest.formURLEncoded(url: "https://redcap.example.org/api/",
                                                       fields: [("token", "ABC"), ("content", "record")])
        #expect(request.method == .post)
        #expect(request.headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(request.body == Array("token=ABC&content=record".utf8))
    }

    @Test func trickyFieldsSurviveTheRoundTripToAServer() throws {
        let server = try TestServer()
        defer { server.stop() }
        let fields = [("a b&c=d/ü+%", "a b&c=d/ü+%"), ("data", #"[{"record_id":"UKE-2026-0042"}]"#)]
        let response = try testClient().send(.formURLEncoded(url: server.url("/echo"), fields: fields))
        #expect(response.headers["X-Echo-Content-Type"] == "application/x-www-form-urlencoded")
        let decoded = try #require(response.bodyText.map(decodeForm))
        #expect(decoded.map(\.0) == fields.map(\.0))
        #expect(decoded.map(\.1) == fields.map(\.1))
    }

    /// A plain form decoder, as a server (PHP's) would apply it: `+` and `%20` are spaces.
    private func decodeForm(_ text: String) -> [(String, String)] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (percentDecode(parts[0]), parts.count > 1 ? percentDecode(parts[1]) : "")
        }
    }

    private func percentDecode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let hex = String(decoding: [iterator.next() ?? 0, iterator.next() ?? 0], as: UTF8.self)
                bytes.append(UInt8(hex, radix: 16) ?? 0)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
