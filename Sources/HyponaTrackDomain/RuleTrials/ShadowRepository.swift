import HyponaTrackCore
import HyponaTrackKit
import SQLite

/// Reads and writes `rules_shadow` (the shadow set by the CLI) and `shadow_evaluations`.
/// Callers own the transaction.
enum ShadowRepository {
    enum Stored {
        case on(RuleTexts), off
    }

    /// The shadow the CLI set; nil when it never set one (the configuration decides).
    static func load(_ db: Connection) throws -> Stored? {
        guard let row = try db.queryOne("SELECT state, risk_model, thresholds, reminders, instructions FROM rules_shadow WHERE id = 1")
        else { return nil }
        guard try row.string(0) == "on" else { return .off }
        var files: [String: [UInt8]] = [:]
        for (i, name) in RuleSet.fileNames.enumerated() { files[name] = Array(try row.string(i + 1).utf8) }
        return .on(RuleTexts(files: files))
    }

    static func store(_ db: Connection, _ texts: RuleTexts?, by actor: String, at ms: Int64) throws {
        let text = { (name: String) -> String? in texts?.files[name].map { String(decoding: $0, as: UTF8.self) } }
        try db.execute("""
            INSERT INTO rules_shadow (id, state, risk_model, thresholds, reminders, instructions, since, set_by)
            VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7)
            ON CONFLICT (id) DO UPDATE SET state = ?1, risk_model = ?2, thresholds = ?3, reminders = ?4, instructions = ?5,
                since = ?6, set_by = ?7
            """, [texts == nil ? "off" : "on", text("risk-model.json"), text("thresholds.json"), text("reminders.json"),
                  text("instructions.json"), ms, actor])
    }

    static func insertEvaluation(_ db: Connection, patientId: Int64, _ e: Evaluation, at ms: Int64) throws {
        try db.execute("""
            INSERT INTO shadow_evaluations (patient_id, date, pod, level, reasons, risk_class, rules_version, evaluated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [patientId, e.date.description, e.pod, e.level?.rawValue, StoredReasonsColumn.encode(e.reasons.map(StoredReason.init)),
                  e.risk.riskClass.rawValue, e.rulesVersion, ms])
    }

    /// A day's latest shadow evaluation.
    struct ShadowDay {
        var level: Level?
        var reasons: [String]
        var version: String
        var evaluatedAt: Int64
    }

    /// The latest shadow evaluation of each date made under `version`, by patient row id, and
    /// when the first one under it was stored.
    static func latest(_ db: Connection, version: String) throws -> (days: [Int64: [LocalDate: ShadowDay]], since: Int64?) {
        var out: [Int64: [LocalDate: ShadowDay]] = [:]
        var since: Int64?
        try db.forEachRow("""
            SELECT patient_id, date, level, reasons, rules_version, evaluated_at FROM shadow_evaluations ORDER BY patient_id, date, id
            """) { row in
            guard let date = LocalDate(try row.string(1)) else { return true }
            let day = ShadowDay(level: try row.optionalString(2).flatMap(Level.init(rawValue:)),
                                reasons: StoredReasonsColumn.decode(try row.string(3)).map(\.code), version: try row.string(4),
                                evaluatedAt: try row.int64(5))
            let id = try row.int64(0)
            // The latest evaluation of the date decides; a later one under other rules hides an older one under these.
            out[id, default: [:]][date] = day
            if day.version == version { since = min(since ?? day.evaluatedAt, day.evaluatedAt) }
            return true
        }
        return (out.mapValues { $0.filter { $0.value.version == version } }, since)
    }
}
