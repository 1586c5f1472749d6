import Testing
import HyponaTrackCore
@testable import HyponaTrackDomain

/// Page 1's summary composed without drawing (docs/product.md, third round, C, "The report";
/// "Settled details", C — wording: *Since*).
@Suite struct ReportComposerTests {
    static let surgery = LocalDate("2026-11-01")!

    /// A patient with a level (nil: stored, not evaluated) for each of POD 1…, and `alerts`.
    static func composer(_ levels: [Level?], alerts: [AlertView] = [], language: Language = .en) -> ReportComposer {
        let rules = MapperFixture.shipped
        let profile = PatientProfile(studyId: "RC-1", surgeryDate: surgery, timeZone: "Europe/Berlin", age: 50, sex: .male,
                                     bmi: 27, baselineWeightKg: 80)
        let patient = PatientRecord(id: 1, profile: profile, enrolledAt: 0, enrolledBy: "staff:ann")
        var days: [DailyEntry] = [], evaluations: [LocalDate: StoredEvaluation] = [:]
        for (i, level) in levels.enumerated() {
            let date = surgery.adding(days: i + 1)
            days.append(DailyEntry(date: date, weightMorningKg: 80))
            evaluations[date] = StoredEvaluation(id: Int64(i + 1), date: date, pod: i + 1, level: level, reasons: [], riskScore: 0,
                                                 riskClass: "low", factor: 1, rulesVersion: rules.version, cause: "submission",
                                                 evaluatedAt: 0)
        }
        let window = MonitoringWindow(profile: profile, rules: rules.reminders)
        let content = ReportContent(patient: patient, stored: PatientStoredData(window: window, days: days, evaluations: evaluations),
                                    charts: [], risk: RiskEngine(rules: rules.riskModel).assess(profile),
                                    riskFactors: RiskEngine(rules: rules.riskModel).factors(profile), alerts: alerts,
                                    rules: rules, zone: ZoneRules(identifier: "Europe/Berlin")!, now: 1_796_000_000)
        return ReportComposer(content: content, text: ReportText(language: language))
    }

    static func alert(_ id: Int64, pod: Int, _ level: Level, _ state: AlertState) -> AlertView {
        AlertView(id: id, studyId: "RC-1", date: surgery.adding(days: pod), pod: pod, kind: .evaluation, level: level, state: state,
                  reasons: [], openedAt: 0, tiersFired: 0)
    }

    @Test func withoutAnUnresolvedAlertTheLevelHoldsSinceTheFirstDayOfTheRunAtOrAboveItAndUnevaluatedDaysDoNotBreakIt() {
        // POD 1 green, 2 yellow, 3 not evaluated, 4 red, 5 yellow: yellow since POD 4 (red is above yellow, the gap does not break).
        #expect(Self.composer([.green, .yellow, nil, .red, .yellow]).standing
                    == .init(level: .yellow, since: Self.surgery.adding(days: 2), alertId: nil))
        #expect(Self.composer([.yellow, .green, .red]).standing == .init(level: .red, since: Self.surgery.adding(days: 3), alertId: nil))
        #expect(Self.composer([nil]).standing == nil)
    }

    @Test func anUnresolvedAlertGivesItsLevelSinceItsFirstDay() {
        let alerts = [Self.alert(1, pod: 1, .red, .resolved), Self.alert(2, pod: 3, .yellow, .acknowledged)]
        let c = Self.composer([.red, .green, .yellow, .green], alerts: alerts)
        #expect(c.standing == .init(level: .yellow, since: Self.surgery.adding(days: 3), alertId: 2))
        let summary = Dictionary(uniqueKeysWithValues: c.summaryFacts().map { ($0.label, $0.value) })
        #expect(summary["Current level"] == "Yellow since 2026-11-04 (POD 3) (alert #2)")
        #expect(summary["Unacknowledged alerts"] == "none", "acknowledged, no new data since")
        #expect(summary["First red day"] == "2026-11-02 (POD 1)")
        #expect(summary["Last lab sodium"] == "none" && summary["Last contact"] == "none")
    }

    @Test func theGermanSummaryWritesGermanDatesAndWords() {
        let c = Self.composer([.green, .red], alerts: [Self.alert(7, pod: 2, .red, .open)], language: .de)
        let summary = Dictionary(uniqueKeysWithValues: c.summaryFacts().map { ($0.label, $0.value) })
        #expect(summary["Aktuelle Stufe"] == "Rot seit 3.11.2026 (POD 2) (Alarm #7)")
        #expect(summary["Unbestätigte Alarme"] == "#7 Rot, 3.11.2026 (POD 2)")
        #expect(summary["Erster roter Tag"] == "3.11.2026 (POD 2)")
        let baseline = Dictionary(uniqueKeysWithValues: c.baselineFacts().map { ($0.label, $0.value) })
        #expect(baseline["Alter"] == "50 Jahre" && baseline["Geschlecht"] == "männlich" && baseline["Histologie"] == "nicht erfasst")
        let factors = c.factorTable()
        #expect(factors.rows.count == 12 && factors.rows.map { $0.cells[0] }.joined() == "AAAAAABBBCCC")
    }
}
