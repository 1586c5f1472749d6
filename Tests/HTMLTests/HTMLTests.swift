import Testing
import HTML

@Suite struct HTMLEscapingTests {
    @Test func interpolatedTextCannotOpenATagOrLeaveAnAttribute() {
        let id = "<script>alert(1)</script>\" onmouseover='x' &"
        let html: HTML = "<td title=\"\(id)\">\(id)</td>"
        #expect(html.description == "<td title=\"&lt;script&gt;alert(1)&lt;/script&gt;&quot; onmouseover=&#39;x&#39; &amp;\">"
                + "&lt;script&gt;alert(1)&lt;/script&gt;&quot; onmouseover=&#39;x&#39; &amp;</td>")
    }

    @Test func nestedMarkupIsKeptAndOnlyItsValuesWereEscaped() {
        let inner: HTML = "<b>\("a<b")</b>"
        let outer: HTML = "<p>\(inner) \([inner, inner])</p>"
        #expect(outer.description == "<p><b>a&lt;b</b> <b>a&lt;b</b><b>a&lt;b</b></p>")
    }

    @Test func numbersAndAbsentValuesAreWrittenPlainly() {
        let none: String? = nil
        let html: HTML = "\(42)|\(Int64(-7))|\(none)|\("x" as String?)"
        #expect(html.description == "42|-7||x")
    }

    @Test func joinedPutsTheSeparatorBetweenParts() {
        let parts: [HTML] = ["<i>1</i>", "<i>2</i>", "<i>3</i>"]
        #expect(parts.joined(separator: "<br>").description == "<i>1</i><br><i>2</i><br><i>3</i>")
        #expect([HTML]().joined(separator: ",").description == "")
    }

    @Test func pathSegmentsAreFullyPercentEncoded() {
        #expect(URLComponentEncoding.segment("P 01/../x?y#z") == "P%2001%2F..%2Fx%3Fy%23z")
        #expect(URLComponentEncoding.segment("Ärger") == "%C3%84rger")
        #expect(URLComponentEncoding.segment("SOAK-006_a.b~") == "SOAK-006_a.b~")
    }
}
