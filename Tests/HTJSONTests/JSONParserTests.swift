import Testing
import HTJSON

@Suite struct JSONParserTests {
    @Test func parsesEveryValueKindAndKeepsMemberOrder() throws {
        let v = try JSONParser.parse(#"{"b": [1, 2.5, -3e2], "a": {"t": true, "f": false, "n": null}, "s": "x\u00e9\n"}"#)
        guard case .object(let o) = v else { Issue.record("not an object"); return }
        #expect(o.keys == ["b", "a", "s"])
        #expect(o["b"] == [1, 2.5, -300])
        #expect(o["s"] == "xé\n")
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\":1,}", "01", "1.", "NaN", "'a'", "{\"a\" 1}", "[1] 2", "\"\\x\"",
                      "\"tab\there\"", "{\"a\":1,\"a\":2}", "1e999", "\"\\ud800\""])
    func refusesMalformedOrAmbiguousJSON(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test func refusesNestingDeeperThanTheLimit() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
        // Also when an escape follows (the string is then read byte by byte) or precedes it.
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xC3, 0x5C, 0x6E, 0x22]) }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0x5C, 0x6E, 0xFF, 0x22]) }
    }

    /// Strings without escapes are taken from the input as they are; with one, byte by byte:
    /// both read the same text.
    @Test func stringsReadTheSameWithAndWithoutEscapes() throws {
        #expect(try JSONParser.parse(#""plain-id_1 2026-03-07T08:00:00+01:00""#) == "plain-id_1 2026-03-07T08:00:00+01:00")
        #expect(try JSONParser.parse(#""Übelkeit, kräftig""#) == "Übelkeit, kräftig")
        #expect(try JSONParser.parse(#""Übelkeit\n\"kräftig\"""#) == "Übelkeit\n\"kräftig\"")
        #expect(try JSONParser.parse(#""""#) == "")
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(#""unterminated"#) }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("\"line\nbreak\"") }
    }

    @Test func decodesSurrogatePairs() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == "😀")
    }

    @Test func serializationRoundTrips() throws {
        let v: JSONValue = ["level": "red", "pod": 7, "value": 1.0172, "reasons": [["code": "confusion"]], "x": nil,
                            "text": "quote \" backslash \\ control \u{01}"]
        let text = JSONSerializer.string(v)
        #expect(try JSONParser.parse(text) == v)
        #expect(JSONSerializer.string(v, pretty: true).contains("\n  \"pod\": 7"))
    }

    @Test func integralNumbersAreWrittenWithoutAFraction() {
        #expect(JSONSerializer.string([140.0, 1.5, -2.0]) == "[140,1.5,-2]")
    }
}

@Suite struct ObjectReaderTests {
    @Test func reportsTheFirstUnreadMemberAsUnknown() throws {
        let r = try ObjectReader(["a": 1, "typo": 2], path: "x")
        _ = try r.required("a", .integer(0...5))
        #expect(throws: FieldError(.unknownField, field: "x.typo", "unknown field")) { try r.finish() }
    }

    /// Members are marked read by position: a member read twice counts once, and a large
    /// (indexed) object names its first unread member just like a small one.
    @Test func readingAMemberTwiceStillLeavesTheUnreadOneReported() throws {
        let small = try ObjectReader(["a": 1, "b": 2], path: "s")
        _ = try small.required("a", .integer(0...5))
        _ = try small.optional("a", .integer(0...5))
        #expect(throws: FieldError(.unknownField, field: "s.b", "unknown field")) { try small.finish() }

        let members = (0..<20).map { ("k\($0)", JSONValue.int($0)) }
        let large = try ObjectReader(.object(JSONObject(members)), path: "l")
        for i in 0..<20 where i != 13 { _ = try large.required("k\(i)", .integer(0...50)) }
        _ = try large.required("k0", .integer(0...50))
        #expect(throws: FieldError(.unknownField, field: "l.k13", "unknown field")) { try large.finish() }
        _ = try large.required("k13", .integer(0...50))
        try large.finish()

        let untouched = try ObjectReader(["only": 1], path: "u")
        #expect(throws: FieldError(.unknownField, field: "u.only", "unknown field")) { try untouched.finish() }
        try ObjectReader([:]).finish()
    }

    @Test func distinguishesAbsentNullAndValue() throws {
        let r = try ObjectReader(["n": nil, "v": 2])
        #expect(try r.presence("n", .integer(0...5)) == .null)
        #expect(try r.presence("v", .integer(0...5)) == .value(2))
        #expect(try r.presence("missing", .integer(0...5)) == .absent)
    }

    @Test func outOfRangeNamesTheRange() throws {
        let r = try ObjectReader(["vas": 11], path: "symptoms[0]")
        #expect(throws: FieldError(.invalidValue, field: "symptoms[0].vas", "11 is outside 0–10",
                                   problem: .outOfRange(lower: 0, upper: 10))) {
            try r.required("vas", .integer(0...10))
        }
    }
}
