import Testing
@testable import HTJSON

@Suite struct JSONTextBuilderTests {
    struct Item: Encodable { var n: Int; var x: Double?; var s: String?; var t: JSONText }
    struct Value: Encodable { var name: String; var empty: [String: Int]; var items: [Item]; var tags: [String]; var flag: Bool }

    static func written(_ v: Value) throws -> String {
        let b = JSONTextBuilder()
        b.beginObject()
        b.member("name"); b.string(v.name)
        b.member("empty"); b.beginObject(); b.end()
        b.member("items"); b.beginArray()
        for item in v.items {
            b.element(); b.beginObject()
            b.member("n"); b.integer(item.n)
            b.member("x"); try b.number(item.x)
            b.member("s"); b.string(item.s)
            b.member("t"); b.text(item.t)
            b.end()
        }
        b.end()
        b.member("tags"); b.strings(v.tags)
        b.member("flag"); b.bool(v.flag)
        b.end()
        return String(decoding: b.bytes, as: UTF8.self)
    }

    @Test func theBuildersTextIsTheEncodersForTheSameMembers() throws {
        let values = [
            Value(name: "a\"b\u{1}ü", empty: [:], items: [], tags: [], flag: false),
            Value(name: "", empty: [:], items: [Item(n: -3, x: nil, s: nil, t: JSONText(#"{"k":[1]}"#)),
                                                Item(n: 0, x: 1.5, s: "\n", t: JSONText("null")),
                                                Item(n: 7, x: 100, s: "é", t: JSONText("2"))], tags: ["x", "y\\"], flag: true),
        ]
        for v in values { #expect(try Self.written(v) == JSONTextEncoder.string(v)) }
    }

    @Test func aNonFiniteNumberIsRefused() {
        let b = JSONTextBuilder()
        b.beginArray()
        b.element()
        #expect(throws: EncodingError.self) { try b.number(Double.nan) }
    }

    @Test func aHeadWrittenByHandJoinsATailWrittenByHand() throws {
        let head = try JSONObjectHead(writing: { b in b.beginObject(); b.member("a"); b.integer(1); b.end() })
        #expect(try JSONTextEncoder.string(head, thenWriting: { b in b.beginObject(); b.member("c"); b.strings(["z"]); b.end() })
                == #"{"a":1,"c":["z"]}"#)
        #expect(throws: EncodingError.self) { try JSONObjectHead(writing: { b in b.strings([]) }) }
    }
}
