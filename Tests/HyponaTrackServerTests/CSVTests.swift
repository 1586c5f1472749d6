import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// RFC 4180 fields and records, and the excel dialect with its spreadsheet-formula defence
/// (docs/product.md, "Exports and statistics").
@Suite struct CSVTests {
    static let excelDE = CSVDialect.excel(.de), excelEN = CSVDialect.excel(.en)

    @Test func plainFieldsStayAsTheyAre() {
        #expect(CSV.field(.text("HT-007")) == "HT-007")
        #expect(CSV.field(.text("")) == "")
        #expect(CSV.field(.text("2026-03-09 08:05")) == "2026-03-09 08:05")
        #expect(CSV.field(.text("Natrium äöü")) == "Natrium äöü")
    }

    @Test func commaQuoteCarriageReturnAndLineFeedAreQuotedWithInnerQuotesDoubled() {
        #expect(CSV.field(.text("weight_gain_pct,fluid_excess")) == "\"weight_gain_pct,fluid_excess\"")
        #expect(CSV.field(.text("say \"hi\"")) == "\"say \"\"hi\"\"\"")
        #expect(CSV.field(.text("a\nb")) == "\"a\nb\"")
        #expect(CSV.field(.text("a\r\nb")) == "\"a\r\nb\"")
        #expect(CSV.field(.text("\"")) == "\"\"\"\"")
    }

    @Test func aRecordEndsWithCRLFAndJoinsWithCommas() {
        #expect(CSV.record([.text("record_id"), .text("dm_pod")]) == "record_id,dm_pod\r\n")
        #expect(CSV.record([.text("A"), .text(""), .text("x,y")]) == "A,,\"x,y\"\r\n")
    }

    @Test func theDefaultDialectKeepsEveryValueAsStoredFormulaLikeTextToo() {
        for text in ["=HYPERLINK(\"http://x\")", "-A1", "+cmd", "@SUM(A1)", "-"] {
            #expect(CSV.field(.text(text)) == CSV.field(.text(text), .rfc4180))
            #expect(!CSV.field(.text(text)).contains("'"), "\(text)")
        }
        #expect(CSV.field(.text("-A1")) == "-A1")
        #expect(CSV.field(.number("-1.5")) == "-1.5")
    }

    @Test func inTheExcelDialectATextCellThatASpreadsheetWouldRunAsAFormulaGetsALeadingApostrophe() {
        #expect(CSV.field(.text("=HYPERLINK(\"http://x\")"), Self.excelEN) == "\"'=HYPERLINK(\"\"http://x\"\")\"")
        #expect(CSV.field(.text("-A1"), Self.excelEN) == "'-A1")
        #expect(CSV.field(.text("+cmd"), Self.excelDE) == "'+cmd")
        #expect(CSV.field(.text("@SUM(A1)"), Self.excelEN) == "'@SUM(A1)")
        #expect(CSV.field(.text("\tx"), Self.excelEN) == "'\tx")
        #expect(CSV.field(.text("\rx"), Self.excelEN) == "\"'\rx\"")
        #expect(CSV.field(.text("-1.5"), Self.excelEN) == "'-1.5", "text that looks like a number is still text")
        #expect(CSV.field(.text("a=b"), Self.excelEN) == "a=b", "only the first character counts")
    }

    @Test func aNumberCellIsNeverPrefixedAndTakesADecimalCommaOnlyInGerman() {
        #expect(CSV.field(.number("-1.5"), Self.excelEN) == "-1.5")
        #expect(CSV.field(.number("-1.5"), Self.excelDE) == "-1,5")
        #expect(CSV.field(.number("1.018"), Self.excelDE) == "1,018")
        #expect(CSV.field(.number("140"), Self.excelDE) == "140")
        #expect(CSV.field(.number(""), Self.excelDE) == "")
        #expect(CSV.field(.text("2026-03-09"), Self.excelDE) == "2026-03-09", "dates stay ISO")
    }

    @Test func theExcelDialectSeparatesWithSemicolonsAndQuotesFieldsThatHoldOne() {
        #expect(CSV.record([.text("a"), .number("1.5"), .text("b;c"), .text("d,e")], Self.excelDE) == "a;1,5;\"b;c\";d,e\r\n")
    }

    @Test func aDocumentIsTheHeaderThenItsRecordsAndCountsOnlyDataRows() {
        var doc = CSVDocument(header: ["record_id", "alert_ack_by"])
        doc.append([.text("HT-1"), .text("-ward")])
        doc.append([.text("HT-2"), .text("")])
        #expect(doc.rows == 2)
        #expect(String(decoding: doc.bytes, as: UTF8.self) == "record_id,alert_ack_by\r\nHT-1,-ward\r\nHT-2,\r\n")
        #expect(Array(doc.bytes.prefix(3)) != [0xEF, 0xBB, 0xBF], "no byte order mark")
    }

    @Test func anExcelDocumentStartsWithTheByteOrderMark() {
        var doc = CSVDocument(header: ["record_id", "rt_slowing_pct"], dialect: Self.excelDE)
        doc.append([.text("-ward"), .number("-1.5")])
        #expect(Array(doc.bytes.prefix(3)) == [0xEF, 0xBB, 0xBF])
        #expect(String(decoding: doc.bytes.dropFirst(3), as: UTF8.self) == "record_id;rt_slowing_pct\r\n'-ward;-1,5\r\n")
    }

    @Test func theDataDictionaryDecidesWhichColumnsAreNumbers() {
        let numeric = REDCapFields.numericColumns(REDCapFields.alertLog, form: REDCapFields.alertLogForm)
        #expect(numeric.isSuperset(of: ["alert_id", "alert_pod", "alert_resolution_na", "alert_min_to_ack", "alert_log_complete"]))
        #expect(numeric.isDisjoint(with: ["alert_kind", "alert_date", "alert_ack_note", "alert_opened_at", "alert_log_reasons"]))
    }
}
