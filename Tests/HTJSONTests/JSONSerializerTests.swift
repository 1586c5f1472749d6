import Testing
@testable import HTJSON

@Suite struct JSONSerializerTests {
    @Test func stringsEscapeQuotesBackslashesAndControlCharacters() {
        let text = JSONSerializer.string(.string("a\"b\\c\n\r\t\u{08}\u{0C}\u{01}\u{1F}"))
        #expect(text == #""a\"b\\c\n\r\t\b\f\u0001\u001f""#)
    }

    @Test func lineAndParagraphSeparatorsAreEscapedAndOtherUnicodeIsKept() {
        #expect(JSONSerializer.string(.string("x\u{2028}y\u{2029}z")) == #""x\u2028y\u2029z""#)
        // E2 80 A7 (U+2027) and E2 82 AC (€) share the lead byte and stay as they are.
        #expect(JSONSerializer.string(.string("\u{2027}€ Müller 🙂")) == "\"\u{2027}€ Müller 🙂\"")
    }

    @Test func whatIsWrittenParsesBackToTheSameValue() throws {
        let value: JSONValue = ["name": .string("Zoë \"Q\" \\ \u{2028}\n"), "n": 1.5, "list": [true, .null, -3],
                                "nested": ["empty": [:], "none": []]]
        #expect(try JSONParser.parse(JSONSerializer.bytes(value)) == value)
        #expect(try JSONParser.parse(JSONSerializer.bytes(value, pretty: true)) == value)
    }

    @Test func prettyOutputIndentsByTwoSpaces() {
        let value: JSONValue = ["a": [1, 2]]
        #expect(JSONSerializer.string(value, pretty: true) == "{\n  \"a\": [\n    1,\n    2\n  ]\n}")
    }
}
