import Testing
import HTJSON

/// The ordered object: document order, one member per key, and lookups that stay right whether
/// the object is small (searched) or large (indexed).
@Suite struct JSONObjectTests {
    static func document(keys: Int) -> String {
        "{" + (0..<keys).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + "}"
    }

    @Test func anObjectWithFiftyThousandKeysParsesWithEveryMemberInOrder() throws {
        let n = 50_000
        guard case .object(let o) = try JSONParser.parse(Self.document(keys: n)) else { Issue.record("not an object"); return }
        #expect(o.count == n)
        #expect(o.keys == (0..<n).map { "k\($0)" })
        for i in stride(from: 0, to: n, by: 997) { #expect(o["k\(i)"] == .number(Double(i))) }
        #expect(o["k\(n - 1)"] == .number(Double(n - 1)))
        #expect(o["k\(n)"] == nil)
    }

    @Test(arguments: [2, 15, 16, 17, 40_000])
    func aDuplicateKeyIsRefusedAtAnySize(keys: Int) {
        let text = String(Self.document(keys: keys).dropLast()) + ", \"k\(keys / 2)\": 0}"
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test func settingReplacesInPlaceAppendsNewKeysAndNilRemoves() {
        for size in [3, 40] {
            var o = JSONObject((0..<size).map { ("k\($0)", JSONValue.number(Double($0))) })
            o["k1"] = "replaced"
            o["new"] = true
            o["k0"] = nil
            var expected = (1..<size).map { "k\($0)" }
            expected.append("new")
            #expect(o.keys == expected, "size \(size)")
            #expect(o["k1"] == "replaced" && o["new"] == true && o["k0"] == nil, "size \(size)")
            #expect(o["k\(size - 1)"] == .number(Double(size - 1)), "size \(size)")
            // After the removal every key still finds its own member.
            for (key, value) in o.members { #expect(o[key] == value, "size \(size): \(key)") }
        }
    }

    @Test func shrinkingBelowTheIndexKeepsLookupsRight() {
        var o = JSONObject((0..<20).map { ("k\($0)", JSONValue.number(Double($0))) })
        for i in 0..<10 { o["k\(i)"] = nil }
        #expect(o.keys == (10..<20).map { "k\($0)" })
        o["k5"] = 5
        #expect(o.keys.last == "k5" && o["k5"] == 5 && o["k15"] == 15)
    }

    @Test func repeatedKeysInTheInitialiserKeepTheFirstPositionAndTheLastValue() {
        let o = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        #expect(o.keys == ["a", "b"] && o["a"] == 3)
    }

    @Test func equalityIsMemberOrderAndValuesWhateverTheHistory() throws {
        let members = (0..<30).map { ("k\($0)", JSONValue.number(Double($0))) }
        var grown = JSONObject(members + [("extra", "x")])
        grown["extra"] = nil
        #expect(grown == JSONObject(members))
        #expect(try JSONParser.parse(Self.document(keys: 30)) == .object(JSONObject(members)))
        #expect(JSONObject([("a", 1), ("b", 2)]) != JSONObject([("b", 2), ("a", 1)]))
    }
}
