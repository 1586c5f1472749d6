import Testing
import HTJSON

/// A number the text writes as nonzero must not read as 0, nor any number as infinity: both are
/// refused as out of range, with the JSON path of the value, never silently changed.
@Suite struct JSONNumberRangeTests {
    @Test(arguments: ["1e-400", "-2.5e-330", "0.000001e-320", "1e400", "-1E+309", "123456789e99999999999999999999"])
    func aNumberThatCannotBeRepresentedIsRefusedAsOutOfRange(text: String) {
        #expect {
            try JSONParser.parse(text)
        } throws: { error in
            (error as? JSONSyntaxError)?.kind == .numberOutOfRange
        }
    }

    @Test(arguments: ["0", "-0", "0.0", "0e-400", "-0.000e+999", "0E400"])
    func everySpellingOfZeroIsStillZero(text: String) throws {
        #expect(try JSONParser.parse(text) == 0)
    }

    @Test func theSmallestSubnormalsAndLargestFiniteNumbersAreKept() throws {
        #expect(try JSONParser.parse("5e-324") == .number(Double.leastNonzeroMagnitude))
        #expect(try JSONParser.parse("1e-310") == .number(Double("1e-310")!))
        #expect(try JSONParser.parse("1.7976931348623157e308") == .number(Double.greatestFiniteMagnitude))
    }

    @Test func theRefusalNamesThePathOfTheValue() {
        let text = #"{"weightMorningKg": 70, "symptoms": [{"id": "a", "vas": 1}, {"id": "b", "vas": 1e-400}]}"#
        #expect(throws: JSONSyntaxError(message: "1e-400 is out of range: it is not zero but too small to be represented (it would read as 0)",
                                        offset: 79, kind: .numberOutOfRange, path: "symptoms[1].vas")) {
            try JSONParser.parse(text)
        }
        #expect(throws: JSONSyntaxError(message: "1e400 is out of range: it is too large to be represented", offset: 5,
                                        kind: .numberOutOfRange, path: "[1][0]")) {
            try JSONParser.parse("[0, [1e400]]")
        }
    }

    @Test func aMalformedDocumentStaysMalformedWithoutAPath() {
        #expect(throws: JSONSyntaxError(message: "invalid number", offset: 11, kind: .malformed, path: "")) {
            try JSONParser.parse(#"{"a": [1, -]}"#)
        }
    }
}
