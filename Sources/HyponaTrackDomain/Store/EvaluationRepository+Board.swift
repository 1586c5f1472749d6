import HyponaTrackCore
import SQLite

/// The ward board's evaluation and alert reads over many patients, one query each whatever their
/// number (a query per patient cost more than the rest of the board together). The patients go
/// in as one JSON array read by `json_each` (https://www.sqlite.org/json1.html#jeach), so the
/// statement text stays the same for any number of them and is prepared once, and each
/// patient's rows are still found through the `(patient_id, date, id)` index.
extension EvaluationRepository {
    /// `current(_:patientId:)` of each of `patientIds`, by patient id; a patient without any
    /// evaluation is absent.
    static func current(_ db: Connection, patientIds: [Int64]) throws -> [Int64: StoredEvaluation] {
        guard !patientIds.isEmpty else { return [:] }
        var out: [Int64: StoredEvaluation] = [:]
        for row in try db.query("""
            SELECT e.* FROM json_each(?) p JOIN evaluations e
                ON e.id = (SELECT id FROM evaluations WHERE patient_id = p.value ORDER BY date DESC, id DESC LIMIT 1)
            """, ["[\(patientIds.map(String.init).joined(separator: ","))]"]) {
            out[try row.int64("patient_id")] = try decode(row)
        }
        return out
    }

    /// The level of each of `patientIds`' evaluated days (the latest evaluation of each date), by
    /// patient id: the board's "since" walks back through them (`WardBoardRules.since`). A day
    /// whose latest evaluation has no level (not evaluated) is left out, so it breaks no run.
    static func dailyLevels(_ db: Connection, patientIds: [Int64]) throws -> [Int64: [LocalDate: Level]] {
        guard !patientIds.isEmpty else { return [:] }
        var latest: [Int64: [LocalDate: Level?]] = [:]
        for row in try db.query("""
            SELECT e.patient_id, e.date, e.level FROM json_each(?) p JOIN evaluations e ON e.patient_id = p.value
            ORDER BY e.patient_id, e.date, e.id
            """, ["[\(patientIds.map(String.init).joined(separator: ","))]"]) {
            guard let date = LocalDate(try row.string(1)) else { continue }
            latest[try row.int64(0), default: [:]][date] = try row.optionalString(2).flatMap(Level.init(rawValue:))
        }
        return latest.mapValues { $0.compactMapValues { $0 } }
    }

    /// `alertPODs(_:patient:rules:)` of each of `patients`, by patient id (the same dates and
    /// PODs asked per patient); a patient with none is absent.
    static func alertPODs(_ db: Connection, patients: [PatientRecord], rules: ReminderRules) throws -> [Int64: [Int]] {
        let first = rules.extendWhenAlertFromPOD, last = rules.extendedToPOD
        guard first <= last, !patients.isEmpty else { return [:] }
        // Dates are `YYYY-MM-DD`, ids integers: nothing in them needs escaping.
        let asked = patients.map { p in
            let dates = alertPODDates(p, rules: rules)
            return "[\(p.id),\"\(dates.from)\",\"\(dates.to)\"]"
        }
        var out: [Int64: [Int]] = [:]
        for row in try db.query("""
            WITH asked (patient_id, from_date, to_date) AS (
                SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?1))
            SELECT e.patient_id, e.pod FROM asked a JOIN evaluations e
                ON e.patient_id = a.patient_id AND e.date BETWEEN a.from_date AND a.to_date
                WHERE e.pod BETWEEN ?2 AND ?3 AND e.level IN ('yellow', 'red')
            UNION SELECT l.patient_id, d.pod FROM asked a JOIN alerts l ON l.patient_id = a.patient_id
                JOIN alert_days d ON d.alert_id = l.id WHERE d.pod BETWEEN ?2 AND ?3
            """, ["[\(asked.joined(separator: ","))]", first, last]) {
            out[try row.int64("patient_id"), default: []].append(try row.int("pod"))
        }
        return out
    }
}
