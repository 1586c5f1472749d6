import HyponaTrackCore
import SQLite

/// The outcome report's reads across every patient at once (a fixed number of queries,
/// streamed). Callers own the (read) transaction.
enum OutcomeReportRepository {
    /// The level of each date's latest evaluation, by patient row id, each patient's in date
    /// order (nil: not evaluated), of the patients with a hyponatremia episode (only an episode
    /// looks back over levels). Streamed by (patient, date, id) through `evaluations_by_day`: a
    /// date's last row is its latest, so no dictionary is built for a million days.
    static func latestLevels(_ db: Connection) throws -> [Int64: [(date: LocalDate, level: Level?)]] {
        var out: [Int64: [(date: LocalDate, level: Level?)]] = [:]
        var patient: Int64 = -1
        var run: [(date: LocalDate, level: Level?)] = []
        try db.forEachRow("""
            SELECT patient_id, date, level FROM evaluations
            WHERE patient_id IN (SELECT patient_id FROM outcomes WHERE kind = 'hyponatremia' AND status = 'recorded')
            ORDER BY patient_id, date, id
            """) { row in
            let id = try row.int64(0)
            if id != patient {
                if patient >= 0 { out[patient] = run }
                patient = id
                run = []
            }
            guard let date = LocalDate(try row.string(1)) else { return true }
            let level = try row.optionalString(2).flatMap(Level.init(rawValue:))
            if run.last?.date == date { run[run.count - 1].level = level } else { run.append((date, level)) }
            return true
        }
        if patient >= 0 { out[patient] = run }
        return out
    }

    /// When each contact was logged (ms), by patient row id.
    static func contactTimes(_ db: Connection) throws -> [Int64: [Int64]] {
        var out: [Int64: [Int64]] = [:]
        for row in try db.query("SELECT patient_id, contact_at FROM contacts") {
            out[try row.int64(0), default: []].append(try row.int64(1))
        }
        return out
    }
}
