import Imports
import Testing

@Suite struct XMLScannerTests {
    func names(_ text: String, piece: Int = 1 << 20) throws -> [String] {
        var stream = PieceStream(text, piece: piece)
        var seen: [String] = []
        try XMLScanner().scan(&stream) { tag in
            if tag.nameIs("a") { seen.append("a:" + (tag.string("v") ?? "-")) } else { seen.append("other") }
        }
        return seen
    }

    @Test func startTagsAndDecodedAttributesAreReported() throws {
        let text = "<?xml version=\"1.0\"?>\n<!-- c > -->\n<r><a v=\"x &amp; &#x2019;y\"/><a v='1>2'></a><![CDATA[<a v=\"no\"/>]]></r>\n"
        for piece in [1, 3, 100] {
            #expect(try names(text, piece: piece) == ["other", "a:x & ’y", "a:1>2"])
        }
    }

    @Test func malformedDocumentsAreRefusedWithTheReason() {
        let cases = [
            "<r><a></r>": "does not close",
            "<r><a v=\"1\"/>": "ends before </r>",
            "<r><a v=\"1/></r>": "ends inside a tag",
            "<r><a v=1/></r>": "without quotes",
            "<r/><r/>": "second root",
            "hello": "text before",
            "": "no root element",
            "<r><a v=\"1\"w=\"2\"/></r>": "separated by spaces",
            String(repeating: "<r>", count: 300): "nested deeper",
        ]
        for (text, reason) in cases {
            #expect {
                _ = try names(text)
            } throws: { error in
                "\(error)".contains(reason)
            }
        }
    }

    /// One hostile tag must not grow the scanner with its size (12 million attributes took the
    /// daemon to 655 MB): attributes, tag length and name length are bounded.
    @Test func oversizedTagsAreRefusedBeforeTheyGrowTheScanner() throws {
        func attributes(_ n: Int) -> String { "<r" + (0..<n).map { " a\($0)=\"1\"" }.joined() + "/>" }
        #expect(try names(attributes(256)) == ["other"])
        let cases = [
            attributes(257): "more than 256 attributes",
            "<r v=\"" + String(repeating: "x", count: 2 << 20) + "\"/>": "a start tag longer than 1 MiB",
            "<" + String(repeating: "n", count: 1025) + "/>": "a tag name longer than 1024 bytes",
        ]
        for (text, reason) in cases {
            #expect {
                _ = try names(text)
            } throws: { error in
                "\(error)".contains(reason)
            }
        }
    }
}
