import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// RFC 4180 fields and records, and the spreadsheet-formula defence (docs/product.md, "CSV").
@Suite struct CSVTests {
    @Test func plainFieldsStayAsTheyAre() {
        #expect(CSV.field("HT-007") == "HT-007")
        #expect(CSV.field("") == "")
        #expect(CSV.field("2026-03-09 08:05") == "2026-03-09 08:05")
        #expect(CSV.field("Natrium äöü") == "Natrium äöü")
    }

    @Test func commaQuoteCarriageReturnAndLineFeedAreQuotedWithInnerQuotesDoubled() {
        #expect(CSV.field("weight_gain_pct,fluid_excess") == "\"weight_gain_pct,fluid_excess\"")
        #expect(CSV.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSV.field("a\nb") == "\"a\nb\"")
        #expect(CSV.field("a\r\nb") == "\"a\r\nb\"")
        #expect(CSV.field("\"") == "\"\"\"\"")
    }

    @Test func aRecordEndsWithCRLFAndJoinsWithCommas() {
        #expect(CSV.record(["record_id", "dm_pod"]) == "record_id,dm_pod\r\n")
        #expect(CSV.record(["A", "", "x,y"]) == "A,,\"x,y\"\r\n")
    }

    @Test func aFieldThatASpreadsheetWouldRunAsAFormulaGetsALeadingApostrophe() {
        #expect(CSV.field("=HYPERLINK(\"http://x\")") == "\"'=HYPERLINK(\"\"http://x\"\")\"")
        #expect(CSV.field("-A1") == "'-A1")
        #expect(CSV.field("+cmd") == "'+cmd")
        #expect(CSV.field("@SUM(A1)") == "'@SUM(A1)")
        #expect(CSV.field("\tx") == "'\tx")
        #expect(CSV.field("\rx") == "\"'\rx\"")
        #expect(CSV.field("-") == "'-")
        #expect(CSV.field("-1.5e3") == "'-1.5e3", "not how the exports write numbers")
    }

    @Test func signedNumbersStayNumbers() {
        for number in ["-1.5", "-12", "+3", "-0.25", "0", "140.0", "-100"] {
            #expect(CSV.field(number) == number)
        }
        #expect(CSV.field("-1.") == "'-1.")
        #expect(CSV.field("-.5") == "'-.5")
    }

    @Test func aDocumentIsTheHeaderThenItsRecordsAndCountsOnlyDataRows() {
        var doc = CSVDocument(header: ["record_id", "alert_ack_by"])
        doc.append(["HT-1", "-ward"])
        doc.append(["HT-2", ""])
        #expect(doc.rows == 2)
        #expect(String(decoding: doc.bytes, as: UTF8.self) == "record_id,alert_ack_by\r\nHT-1,'-ward\r\nHT-2,\r\n")
        #expect(Array(doc.bytes.prefix(3)) != [0xEF, 0xBB, 0xBF], "no byte order mark")
    }
}
