import Testing
@testable import HTJSON

@Suite struct JSONTextEncoderTests {
    struct Inner: Encodable { var code: String; var value: Double?; var tags: [String] }
    enum Kind: String, Encodable { case lab }
    struct Outer: Encodable {
        var id: Int64
        var kind: Kind
        var note: String?
        var ok: Bool
        var inner: Inner
        var list: [Inner]
        var empty: [Int]
        var raw: JSONText
        var after: Int
    }
    struct Nothing: Encodable {}

    @Test func writesWhatTheSerializerWritesForTheSameValueInDeclarationOrder() throws {
        let value = Outer(id: 7, kind: .lab, note: nil, ok: true,
                          inner: Inner(code: "a\"\u{2028}", value: 3.0, tags: ["x"]),
                          list: [Inner(code: "b", value: nil, tags: []), Inner(code: "c", value: 0.1, tags: ["y", "z"])],
                          empty: [], raw: JSONText(#"{"k":[1,null]}"#), after: -2)
        let expected: JSONValue = [
            "id": 7, "kind": "lab", "note": nil, "ok": true,
            "inner": ["code": "a\"\u{2028}", "value": 3, "tags": ["x"]],
            "list": [["code": "b", "value": nil, "tags": []], ["code": "c", "value": 0.1, "tags": ["y", "z"]]],
            "empty": [], "raw": ["k": [1, nil]], "after": -2,
        ]
        #expect(try JSONTextEncoder.string(value) == JSONSerializer.string(expected))
    }

    @Test func anEmptyValueIsAnEmptyObjectAndTopLevelScalarsAndArraysWork() throws {
        #expect(try JSONTextEncoder.string(Nothing()) == "{}")
        #expect(try JSONTextEncoder.string([Nothing(), Nothing()]) == "[{},{}]")
        #expect(try JSONTextEncoder.string("s") == #""s""#)
        #expect(try JSONTextEncoder.string([1.5, 2]) == "[1.5,2]")
    }

    @Test func aNonFiniteNumberIsRefused() {
        #expect(throws: EncodingError.self) { try JSONTextEncoder.string([Double.nan]) }
    }
}

@Suite struct JSONTextEncoderOmissionTests {
    struct Row: Encodable { var ip: String; @OmittedWhenNil var switchedTo: String?; var plain: String? }

    @Test func anOmittedMemberIsLeftOutWhileNilAndAPlainOptionalIsNull() throws {
        #expect(try JSONTextEncoder.string(Row(ip: "::1", switchedTo: nil, plain: nil)) == #"{"ip":"::1","plain":null}"#)
        #expect(try JSONTextEncoder.string(Row(ip: "::1", switchedTo: "HT-2", plain: "x")) == #"{"ip":"::1","switchedTo":"HT-2","plain":"x"}"#)
    }

    struct Leading: Encodable { @OmittedWhenNil var first: [String]? = nil; @OmittedWhenNil var second: Nested? = nil; var last: Int64 = 1 }
    struct Nested: Encodable { @OmittedWhenNil var a: Int? = nil; var list: [String] = [] }
    struct Wrapped: Encodable { var items: [OmittedWhenNil<String>] }

    @Test func omittedMembersLeaveNoCommaWhereverTheyStandAndAnObjectOfOnlyOmittedMembersIsEmpty() throws {
        #expect(try JSONTextEncoder.string(Leading()) == #"{"last":1}"#)
        #expect(try JSONTextEncoder.string(Leading(first: ["a\"b", "\u{1}"], second: Nested())) == #"{"first":["a\"b","\u0001"],"second":{"list":[]},"last":1}"#)
        #expect(try JSONTextEncoder.string([Nested(), Nested(a: 3, list: ["x"])]) == #"[{"list":[]},{"a":3,"list":["x"]}]"#)
    }

    @Test func anOmittableValueOutsideAnObjectIsNullNotLeftOut() throws {
        #expect(try JSONTextEncoder.string(Wrapped(items: [OmittedWhenNil(wrappedValue: nil), OmittedWhenNil(wrappedValue: "b")])) == #"{"items":[null,"b"]}"#)
        #expect(try JSONTextEncoder.string(OmittedWhenNil<String>(wrappedValue: nil)) == "null")
    }
}

@Suite struct JSONObjectHeadTests {
    struct Whole: Encodable { var a: Int; @OmittedWhenNil var b: String?; var c: [Int] }
    struct Head: Encodable { var a: Int; @OmittedWhenNil var b: String? }
    struct Tail: Encodable { var c: [Int] }
    struct Nothing: Encodable {}

    @Test func aHeadWrittenAheadThenItsTailIsTheTextOfTheWholeValue() throws {
        for b in [nil, "x\"y"] {
            let head = try JSONObjectHead(Head(a: 1, b: b))
            #expect(try JSONTextEncoder.string(head, then: Tail(c: [2, 3])) == JSONTextEncoder.string(Whole(a: 1, b: b, c: [2, 3])))
        }
        #expect(try JSONTextEncoder.string(JSONObjectHead(Nothing()), then: Tail(c: [])) == #"{"c":[]}"#)
        #expect(try JSONTextEncoder.string(JSONObjectHead(Head(a: 1)), then: Nothing()) == #"{"a":1}"#)
    }

    @Test func aHeadOrTailThatIsNotAnObjectIsRefused() {
        #expect(throws: EncodingError.self) { try JSONObjectHead([1]) }
        #expect(throws: EncodingError.self) { try JSONTextEncoder.string(JSONObjectHead(Head(a: 1)), then: "s") }
    }
}
