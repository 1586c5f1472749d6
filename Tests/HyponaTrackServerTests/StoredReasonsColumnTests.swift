import Testing
import HyponaTrackCore
@testable import HyponaTrackDomain

/// The `reasons` column of evaluations and alerts: written at full precision, read back as
/// written, and read leniently (what is not a reason is skipped, never a failed page).
@Suite struct StoredReasonsColumnTests {
    @Test func reasonsReadBackAsWrittenAtFullPrecision() {
        let reasons = [StoredReason(code: "sodium_low", level: .red, value: 124.123456789, threshold: 125),
                       StoredReason(code: "missing_checkin", level: .yellow, value: nil, threshold: nil),
                       StoredReason(code: "fluid_intake_high", level: .info, value: 2400, threshold: 2000)]
        let text = StoredReasonsColumn.encode(reasons)
        #expect(text.hasPrefix("[{\"code\":\"sodium_low\",\"level\":\"red\",\"value\":124.123456789,\"threshold\":125}"))
        #expect(StoredReasonsColumn.decode(text) == reasons)
        #expect(StoredReasonsColumn.decode(StoredReasonsColumn.encode([])) == [])
    }

    @Test func anOlderSixDecimalRowAndNullValuesReadTheSameWay() {
        let text = "[{\"code\":\"weight_gain_24h\",\"level\":\"yellow\",\"value\":1.234568,\"threshold\":1.0},"
            + "{\"code\":\"missing_checkin\",\"level\":\"yellow\",\"value\":null}]"
        #expect(StoredReasonsColumn.decode(text) == [
            StoredReason(code: "weight_gain_24h", level: .yellow, value: 1.234568, threshold: 1),
            StoredReason(code: "missing_checkin", level: .yellow, value: nil, threshold: nil)])
    }

    @Test func anElementThatIsNotAReasonIsSkippedAndTextThatIsNoArrayReadsAsNone() {
        let text = "[1, {\"level\":\"red\"}, {\"code\":\"a\",\"level\":\"purple\"}, {\"code\":\"b\",\"level\":\"red\",\"value\":\"high\"},"
            + " {\"code\":7,\"level\":\"red\"}, {\"code\":\"c\",\"level\":\"red\",\"extra\":true}]"
        #expect(StoredReasonsColumn.decode(text) == [StoredReason(code: "c", level: .red, value: nil, threshold: nil)])
        for broken in ["", "{}", "[{\"code\":\"a\",\"level\":\"red\"}", "null", "[{\"code\":\"a\",\"level\":\"red\"},]"] {
            #expect(StoredReasonsColumn.decode(broken) == [], "\(broken)")
        }
    }
}
