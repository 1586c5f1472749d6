import Testing
import HTJSON
@testable import HyponaTrackCLI

/// `stats` without --json: the table's labels say what the server's figures count.
@Suite struct StatisticsTableTests {
    static func answer(_ extra: [(String, JSONValue)]) -> JSONValue {
        let cohort: JSONValue = ["cohort": "all", "alertsPer100PatientDays": ["byKind": ["no_data_2d": 12.5]]]
        return .object(JSONObject([("generatedAt", "2026-03-08T11:00:00.000Z"), ("cohorts", [cohort])] + extra))
    }

    @Test func theNoDataRateIsLabelledWithTheSilentDaysTheServersRulesCount() {
        let table = StatisticsTable.text(Self.answer([("noDataDays", 3)]))
        #expect(table.contains("no data 3 days /100 days") && !table.contains("2 days"), "\(table)")
        #expect(StatisticsTable.text(Self.answer([("noDataDays", 1)])).contains("no data 1 day /100 days"))
        // A server that does not say: the code, not a number that may be wrong.
        #expect(StatisticsTable.text(Self.answer([])).contains("no_data_2d /100 days"))
    }
}
