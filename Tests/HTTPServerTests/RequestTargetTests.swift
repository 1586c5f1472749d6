@testable import HTTPServer
import Testing

@Suite struct RequestTargetTests {
    private func parse(_ target: String) throws(RequestTargetError) -> RequestTarget {
        try RequestTarget(parsing: Array(target.utf8))
    }

    @Test func pathIsPercentDecodedButPlusStaysLiteral() throws {
        let target = try parse("/patients/P%2001+x/%C3%A9")
        #expect(target.path == "/patients/P 01+x/é")
        #expect(target.rawPath == "/patients/P%2001+x/%C3%A9")
        #expect(target.rawQuery == nil)
        #expect(target.query.isEmpty)
    }

    @Test func queryKeepsRepeatedNamesInOrderAndDecodesPlus() throws {
        let target = try parse("/s?tag=b&tag=a&q=x+y%26z&flag&=v&&e=")
        #expect(target.path == "/s")
        #expect(target.rawQuery == "tag=b&tag=a&q=x+y%26z&flag&=v&&e=")
        #expect(target.query.values(for: "tag") == ["b", "a"])
        #expect(target.query["q"] == "x y&z")
        #expect(target.query["flag"] == "")
        #expect(target.query[""] == "v")
        #expect(target.query["e"] == "")
        #expect(target.query.items.map(\.name) == ["tag", "tag", "q", "flag", "", "e"])
    }

    @Test func absoluteFormKeepsOnlyPathAndQuery() throws {
        let target = try parse("http://example.org:8080/a/b?x=1")
        #expect(target.path == "/a/b")
        #expect(target.query["x"] == "1")
        #expect(try parse("HTTPS://example.org").path == "/")
        #expect(try parse("http://example.org?x=2").query["x"] == "2")
    }

    @Test func fragmentIsIgnored() throws {
        #expect(try parse("/a?x=1#frag").query["x"] == "1")
    }

    @Test(arguments: ["/%FF", "/%zz", "/abc%2", "/a%00b", "/?q=%C3", "/?%FF=1", "/?a=%00", "relative/path"])
    func malformedTargetsAreRejected(_ raw: String) {
        #expect(throws: RequestTargetError.self) { try parse(raw) }
    }

    @Test func rejectionMessagesNameThePart() {
        #expect(throws: RequestTargetError("The request path is not valid UTF-8.")) { try parse("/%FF") }
        #expect(throws: RequestTargetError("The query parameter \"q\" has a malformed percent-escape.")) {
            try parse("/?q=%G1")
        }
    }
}
