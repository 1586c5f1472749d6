import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import SQLite

/// An evaluation as stored.
public struct StoredEvaluation: Sendable {
    public var id: Int64
    public var date: LocalDate
    public var pod: Int
    /// Nil: the day was not evaluated (no rule had its data), `Evaluation.level`.
    public var level: Level?
    public var reasons: [StoredReason]
    public var riskScore: Int
    public var riskClass: String
    public var factor: Double
    public var rulesVersion: String
    public var cause: String
    public var evaluatedAt: Int64

    public var reasonCodes: [String] { reasons.map(\.code) }
}

/// Reads and writes `evaluations` (a history: every evaluation is kept). Callers own the transaction.
enum EvaluationRepository {
    @discardableResult
    static func insert(_ db: Connection, patientId: Int64, _ e: Evaluation, cause: String, at ms: Int64) throws -> Int64 {
        try db.execute("""
            INSERT INTO evaluations (patient_id, date, pod, level, reasons, risk_score, risk_class, factor, rules_version,
                                     cause, evaluated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [patientId, e.date.description, e.pod, e.level?.rawValue, StoredReasonsColumn.encode(e.reasons.map(StoredReason.init)),
                  e.risk.riskScore, e.risk.riskClass.rawValue, e.factor, e.rulesVersion, cause, ms])
        return db.lastInsertRowID
    }

    /// Whether any evaluation of the patient is stored.
    static func hasAny(_ db: Connection, patientId: Int64) throws -> Bool {
        try db.queryOne("SELECT 1 FROM evaluations WHERE patient_id = ? LIMIT 1", [patientId]) != nil
    }

    static func latest(_ db: Connection, patientId: Int64, date: LocalDate) throws -> StoredEvaluation? {
        try db.queryOne("SELECT * FROM evaluations WHERE patient_id = ? AND date = ? ORDER BY id DESC LIMIT 1",
                        [patientId, date.description]).map(decode)
    }

    /// The latest evaluation of every date, by date.
    static func latestPerDate(_ db: Connection, patientId: Int64) throws -> [LocalDate: StoredEvaluation] {
        var out: [LocalDate: StoredEvaluation] = [:]
        for row in try db.query("""
            SELECT * FROM evaluations e WHERE patient_id = ?1
              AND id = (SELECT MAX(id) FROM evaluations WHERE patient_id = ?1 AND date = e.date)
            """, [patientId]) {
            let e = try decode(row)
            out[e.date] = e
        }
        return out
    }

    /// The PODs the extension asks about (`extendWhenAlertFromPOD`…`extendedToPOD`) on which
    /// anything was yellow or red: an evaluation, or an alert of any kind (a missing-data alert
    /// too). Monitoring extends when "any yellow/red occurred on POD ≥ 10" (docs/clinical-rules.md
    /// §6), so a later improvement does not undo it. Only those PODs' dates are read, through the
    /// (patient, date) index — a patient's whole history holds an evaluation per submission, and
    /// reading all of it cost more than the rest of `/v1/me/today` (a day's slack each side;
    /// `pod` decides).
    static func alertPODs(_ db: Connection, patient: PatientRecord, rules: ReminderRules) throws -> [Int] {
        let first = rules.extendWhenAlertFromPOD, last = rules.extendedToPOD
        guard first <= last else { return [] }
        let dates = alertPODDates(patient, rules: rules)
        return try db.query("""
            SELECT pod FROM evaluations WHERE patient_id = ?1 AND date BETWEEN ?2 AND ?3 AND pod BETWEEN ?4 AND ?5
                AND level IN ('yellow', 'red')
            UNION SELECT d.pod FROM alert_days d JOIN alerts a ON a.id = d.alert_id WHERE a.patient_id = ?1 AND d.pod BETWEEN ?4 AND ?5
            """, [patient.id, dates.from.description, dates.to.description, first, last]).map { try $0.int("pod") }
    }

    /// The dates `alertPODs` reads evaluations on: the asked PODs' with a day's slack each side.
    static func alertPODDates(_ patient: PatientRecord, rules: ReminderRules) -> (from: LocalDate, to: LocalDate) {
        (patient.profile.date(ofPOD: rules.extendWhenAlertFromPOD - 1), patient.profile.date(ofPOD: rules.extendedToPOD + 1))
    }

    /// The patient's most recent evaluation of any date (with the unresolved alerts, `CurrentLevel`).
    static func current(_ db: Connection, patientId: Int64) throws -> StoredEvaluation? {
        try db.queryOne("SELECT * FROM evaluations WHERE patient_id = ? ORDER BY date DESC, id DESC LIMIT 1", [patientId])
            .map(decode)
    }

    static func decode(_ row: Row) throws -> StoredEvaluation {
        StoredEvaluation(id: try row.int64("id"), date: LocalDate(try row.string("date")) ?? LocalDate(daysSinceEpoch: 0),
                         pod: try row.int("pod"), level: try row.optionalString("level").flatMap(Level.init(rawValue:)),
                         reasons: StoredReasonsColumn.decode(try row.string("reasons")),
                         riskScore: try row.int("risk_score"), riskClass: try row.string("risk_class"),
                         factor: try row.double("factor"), rulesVersion: try row.string("rules_version"),
                         cause: try row.string("cause"), evaluatedAt: try row.int64("evaluated_at"))
    }
}
