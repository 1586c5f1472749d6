import HyponaTrackCore
import SQLite

/// The ward board's reads of days over every patient at once (one query each, not one per
/// patient; its evaluation reads are `EvaluationRepository+Board.swift`).
extension DayRepository {
    /// When each patient last submitted anything themself (their newest `days.submitted_at`;
    /// staff corrections and confirmed imports do not count), by patient id.
    static func lastSubmissions(_ db: Connection, scope: SiteScope = .allSites) throws -> [Int64: Int64] {
        var out: [Int64: Int64] = [:]
        let reach = scope.patients("patient_id").map { " AND \($0)" } ?? ""
        for row in try db.query("SELECT patient_id, MAX(submitted_at) AS at FROM days WHERE submitted_at IS NOT NULL\(reach) GROUP BY patient_id") {
            out[try row.int64("patient_id")] = try row.int64("at")
        }
        return out
    }

    /// Which checks are complete on the dates `from…to` (a check: its weight and a symptom entry
    /// of its slot, as `DailyEntry.morningCheckComplete` says), by patient id and date; a date
    /// without a stored day is absent.
    static func checks(_ db: Connection, from: LocalDate, to: LocalDate,
                       scope: SiteScope = .allSites) throws -> [Int64: [LocalDate: Set<ReminderRules.Deadline>]] {
        var out: [Int64: [LocalDate: Set<ReminderRules.Deadline>]] = [:]
        let reach = scope.patients("d.patient_id").map { " AND \($0)" } ?? ""
        for row in try db.query("""
            SELECT d.patient_id, d.date,
                   d.weight_morning_kg IS NOT NULL AND EXISTS (SELECT 1 FROM symptom_entries s WHERE s.patient_id = d.patient_id
                       AND s.date = d.date AND s.slot = 'morning' AND s.deleted_at IS NULL) AS morning,
                   d.weight_evening_kg IS NOT NULL AND EXISTS (SELECT 1 FROM symptom_entries s WHERE s.patient_id = d.patient_id
                       AND s.date = d.date AND s.slot = 'evening' AND s.deleted_at IS NULL) AS evening
            FROM days d WHERE d.date BETWEEN ? AND ?\(reach)
            """, [from.description, to.description]) {
            guard let date = LocalDate(try row.string("date")) else { continue }
            var complete: Set<ReminderRules.Deadline> = []
            if try row.int("morning") == 1 { complete.insert(.morning) }
            if try row.int("evening") == 1 { complete.insert(.evening) }
            out[try row.int64("patient_id"), default: [:]][date] = complete
        }
        return out
    }
}
