import HyponaTrackCore
import SQLite

/// The outcome report's reads across every patient at once (a fixed number of queries,
/// streamed). Callers own the (read) transaction.
enum OutcomeReportRepository {
    /// The level of each date's latest evaluation, by patient row id; dates not evaluated are absent.
    static func latestLevels(_ db: Connection) throws -> [Int64: [LocalDate: Level]] {
        var out: [Int64: [LocalDate: Level]] = [:]
        var patient: Int64 = -1
        var levels: [LocalDate: Level] = [:]
        // By (patient, date, id) through evaluations_by_day: the last row of a date is its latest.
        try db.forEachRow("SELECT patient_id, date, level FROM evaluations ORDER BY patient_id, date, id") { row in
            let id = try row.int64(0)
            if id != patient {
                if patient >= 0 { out[patient] = levels }
                patient = id
                levels = [:]
            }
            guard let date = LocalDate(try row.string(1)) else { return true }
            levels[date] = try row.optionalString(2).flatMap(Level.init(rawValue:))
            return true
        }
        if patient >= 0 { out[patient] = levels }
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
