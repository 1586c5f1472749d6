import HyponaTrackCore
import SQLite

/// The latest stored evaluation of each patient-day, as a backtest and the shadow comparison
/// compare it: its level, its reason codes, its POD and whether it was made under the live rules.
struct StoredDayLevel: Sendable {
    var pod: Int
    var level: Level?
    var reasons: [String]
    var underLiveRules: Bool
}

extension EvaluationRepository {
    /// The latest evaluation of every date of the patients whose row ids lie in `patients`, by
    /// patient row id and date (through `evaluations_by_day`: the last row of a date is its latest).
    static func latestLevels(_ db: Connection, patients: ClosedRange<Int64>, liveVersion: String,
                       withReasons: Bool) throws -> [Int64: [(date: LocalDate, day: StoredDayLevel)]] {
        var out: [Int64: [(date: LocalDate, day: StoredDayLevel)]] = [:]
        var patient: Int64 = -1
        var run: [(date: LocalDate, day: StoredDayLevel)] = []
        let sql = """
            SELECT patient_id, date, pod, level, rules_version\(withReasons ? ", reasons" : "") FROM evaluations
            WHERE patient_id BETWEEN ? AND ? ORDER BY patient_id, date, id
            """
        // Rows come by patient, date and id: a patient's run is in date order, and a date's last
        // row (its latest evaluation) replaces the ones before it.
        try db.forEachRow(sql, [patients.lowerBound, patients.upperBound]) { row in
            guard let date = LocalDate(try row.string(1)) else { return true }
            let id = try row.int64(0)
            if id != patient {
                if patient >= 0 { out[patient] = run }
                patient = id
                run = []
                run.reserveCapacity(32)
            }
            let text = withReasons ? try row.string(5) : "[]"
            let day = StoredDayLevel(pod: try row.int(2), level: try row.optionalString(3).flatMap(Level.init(rawValue:)),
                                     reasons: text == "[]" ? [] : StoredReasonsColumn.decode(text).map(\.code),
                                     underLiveRules: try row.string(4) == liveVersion)
            if run.last?.date == date { run[run.count - 1].day = day } else { run.append((date, day)) }
            return true
        }
        if patient >= 0 { out[patient] = run }
        return out
    }
}
