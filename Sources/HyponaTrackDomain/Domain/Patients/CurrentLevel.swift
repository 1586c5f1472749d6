import HyponaTrackCore
import SQLite

/// A patient's current level as staff and the patient are shown it: the higher of the latest
/// evaluation and the unresolved alerts (an open red alert is not hidden by a later green day),
/// with the date and reason codes that explain it. The one rule behind the ward board, the
/// patient page, `GET /v1/patients` and its detail, the CLI's `patients`, and (over today's
/// evaluation and alerts) `GET /v1/me/today`.
public struct CurrentLevel: Sendable, Equatable {
    public var level: Level
    /// The date of the evaluation or alert the level comes from.
    public var date: LocalDate
    /// The reasons of that evaluation or alert, red first (the board words them).
    public var reasons: [StoredReason]
    public var reasonCodes: [String] { reasons.map(\.code) }

    /// The higher of `latest` and `alerts` (unresolved alerts); on a tie the evaluation.
    static func of(_ latest: StoredEvaluation?, _ alerts: [Alert]) -> CurrentLevel? {
        // A latest day that is not evaluated (no level) shows no level unless an alert is open.
        var shown = latest.flatMap { e in e.level.map { CurrentLevel(level: $0, date: e.date, reasons: e.reasons) } }
        for alert in alerts where alert.level > (shown?.level ?? .info) {
            shown = CurrentLevel(level: alert.level, date: alert.date, reasons: alert.reasons)
        }
        return shown
    }
}

extension StudyContext {
    /// The patient's current level and how many alerts are unresolved (the ward board reads
    /// both for every patient at once: `PatientQueries.board`).
    func currentLevel(_ db: Connection, patientId: Int64) throws -> (level: CurrentLevel?, openAlerts: Int) {
        let open = try AlertRepository.unresolved(db, patientId: patientId)
        return (CurrentLevel.of(try EvaluationRepository.current(db, patientId: patientId), open), open.count)
    }
}
