import HyponaTrackCore
import HyponaTrackKit
import SQLite

/// Reads and writes `rules_shadow` (the shadow set by the CLI) and the shadow results stored
/// with each evaluation.
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

    /// The latest evaluation of each date that carries a result under the shadow `version`, by
    /// patient row id, with the live result beside it; and when the first such evaluation was
    /// stored (the shadow's start).
    static func latest(_ db: Connection, version: String, liveVersion: String)
        throws -> (days: [Int64: [(date: LocalDate, live: StoredDayLevel, shadow: StoredDayLevel)]], since: Int64?) {
        let since = try db.queryOne("SELECT MIN(evaluated_at) FROM evaluations WHERE shadow_rules_version = ?", [version])?
            .optionalInt64(0)
        guard let since else { return ([:], nil) }
        var out: [Int64: [(date: LocalDate, live: StoredDayLevel, shadow: StoredDayLevel)]] = [:]
        var run: [(date: LocalDate, live: StoredDayLevel, shadow: StoredDayLevel)] = []
        var patient: Int64 = -1
        var lastDate: LocalDate?
        // By (patient, date, id) through evaluations_by_day: a date's last row is its latest.
        try db.forEachRow("""
            SELECT patient_id, date, pod, level, rules_version, shadow_level, shadow_reasons, shadow_rules_version
            FROM evaluations WHERE evaluated_at >= ? ORDER BY patient_id, date, id
            """, [since]) { row in
            guard let date = LocalDate(try row.string(1)) else { return true }
            let id = try row.int64(0)
            if id != patient {
                if patient >= 0, !run.isEmpty { out[patient] = run }
                patient = id
                run = []
            }
            if run.last?.date == date, lastDate == date { run.removeLast() }
            lastDate = date
            if try row.optionalString(7) == version {
                let pod = try row.int(2)
                let live = StoredDayLevel(pod: pod, level: try row.optionalString(3).flatMap(Level.init(rawValue:)), reasons: [],
                                          underLiveRules: try row.string(4) == liveVersion)
                let shadow = StoredDayLevel(pod: pod, level: try row.optionalString(5).flatMap(Level.init(rawValue:)),
                                            reasons: StoredReasonsColumn.decode(try row.optionalString(6) ?? "[]").map(\.code),
                                            underLiveRules: false)
                run.append((date, live, shadow))
            }
            return true
        }
        if patient >= 0, !run.isEmpty { out[patient] = run }
        return (out, since)
    }
}
