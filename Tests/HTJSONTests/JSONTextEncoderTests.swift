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
}
