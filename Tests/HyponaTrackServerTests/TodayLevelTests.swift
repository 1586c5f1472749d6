import HyponaTrackCore
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// `/v1/me/today` shows the higher of today's latest evaluation and any unresolved alert dated
/// today, explained by the codes of whichever is higher (the evaluation on a tie).
@Suite struct TodayLevelTests {
    static let today = LocalDate("2026-11-20")!

    static func evaluation(_ level: Level, _ codes: [String]) -> StoredEvaluation {
        StoredEvaluation(id: 1, date: today, pod: 6, level: level,
                         reasons: codes.map { StoredReason(code: $0, level: level, value: 1, threshold: 1) },
                         riskScore: 3, riskClass: "medium", factor: 0.9, rulesVersion: "test", cause: "submission", evaluatedAt: 0)
    }

    static func alert(_ kind: AlertKind, _ level: Level) -> Alert {
        Alert(id: 7, patientId: 1, date: today, kind: kind, level: level,
              reasons: [StoredReason(code: kind.rawValue, level: level, value: nil, threshold: nil)], pod: 6, state: .open,
              ladder: 1, ladderStartedAt: 0, lastDate: today)
    }

    @Test func aMissingCheckinAlertAboveAGreenDayIsWhatThePatientSees() {
        let shown = DayService.shownLevel(Self.evaluation(.green, []), [Self.alert(.missingCheckin, .yellow)])
        #expect(shown?.level == .yellow)
        #expect(shown?.reasonCodes == ["missing_checkin"])
    }

    @Test func aRedEvaluationStaysRedBesideAYellowAlert() {
        let shown = DayService.shownLevel(Self.evaluation(.red, ["sodium_profound"]), [Self.alert(.noData2d, .yellow)])
        #expect(shown?.level == .red)
        #expect(shown?.reasonCodes == ["sodium_profound"])
    }

    @Test func onATieTheEvaluationExplainsTheLevel() {
        let shown = DayService.shownLevel(Self.evaluation(.yellow, ["weight_gain"]), [Self.alert(.missingCheckin, .yellow)])
        #expect(shown?.reasonCodes == ["weight_gain"])
    }

    @Test func anAlertWithoutAnyEvaluationIsShown() {
        #expect(DayService.shownLevel(nil, [Self.alert(.noData2d, .red)])?.level == .red)
        #expect(DayService.shownLevel(nil, []) == nil)
    }
}
