import Foundation
import HTJSON
import HyponaTrackCore
import SQLite

/// Reads and writes `alerts`, `escalation_steps` and `alert_recipients`. Callers own the transaction.
enum AlertRepository {
    static let columns = "id, patient_id, date, kind, level, reasons, pod, state, ladder, ladder_started_at, last_date, new_data_at"
    static let qualifiedColumns = columns.split(separator: ",").map { "a." + $0.trimmingCharacters(in: .whitespaces) }
        .joined(separator: ", ")

    static func decode(_ r: Row) throws -> Alert {
        let first = try date(r.string(2))
        return Alert(id: try r.int64(0), patientId: try r.int64(1), date: first, kind: try enumValue(r.string(3)),
                     level: try enumValue(r.string(4)), reasons: StoredReasonsColumn.decode(try r.string(5)), pod: try r.int(6),
                     state: try enumValue(r.string(7)), ladder: try r.int(8), ladderStartedAt: try r.int64(9),
                     lastDate: try r.optionalString(10).map(date) ?? first, newDataAt: try r.optionalInt64(11))
    }

    static func load(_ db: Connection, id: Int64) throws -> Alert? {
        try db.queryOne("SELECT \(columns) FROM alerts WHERE id = ?", [id]).map(decode)
    }

    /// Whether any alert of the patient is stored, a missing-data alert raised before any data included.
    static func hasAny(_ db: Connection, patientId: Int64) throws -> Bool {
        try db.queryOne("SELECT 1 FROM alerts WHERE patient_id = ? LIMIT 1", [patientId]) != nil
    }

    /// Opens an alert covering its first day; its REDCap instance is 1 + the number of the
    /// patient's earlier alerts.
    static func open(_ db: Connection, patientId: Int64, date: LocalDate, kind: AlertKind, level: Level, reasons: [StoredReason],
                     pod: Int, at ms: Int64) throws -> Int64 {
        try db.execute("""
            INSERT INTO alerts (patient_id, date, last_date, kind, level, reasons, pod, state, opened_at, ladder_started_at, updated_at,
                                instance)
            VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, 'open', ?7, ?7, ?7, (SELECT COUNT(*) + 1 FROM alerts WHERE patient_id = ?1))
            """, [patientId, date.description, kind.rawValue, level.rawValue, StoredReasonsColumn.encode(reasons), pod, ms])
        let id = db.lastInsertRowID
        try cover(db, alertId: id, CoveredDay(date: date, level: level, reasons: reasons, pod: pod), at: ms)
        return id
    }

    /// A worsening: higher level or reasons, a new ladder, and open again if it was acknowledged.
    static func worsen(_ db: Connection, _ a: Alert, at ms: Int64) throws {
        try db.execute("""
            UPDATE alerts SET level = ?, reasons = ?, ladder = ?, ladder_started_at = ?, state = 'open',
                acknowledged_at = NULL, acknowledged_by = NULL, acknowledge_note = NULL, new_data_at = NULL, updated_at = ?
            WHERE id = ?
            """, [a.level.rawValue, StoredReasonsColumn.encode(a.reasons), a.ladder, a.ladderStartedAt, ms, a.id])
    }

    static func updateReasons(_ db: Connection, id: Int64, reasons: [StoredReason], at ms: Int64) throws {
        try db.execute("UPDATE alerts SET reasons = ?, updated_at = ? WHERE id = ?", [StoredReasonsColumn.encode(reasons), ms, id])
    }

    /// The first acknowledgement also sets `first_acknowledged_at`, the acknowledging member's
    /// `role` (nil: not a staff member) and its note; later ones leave them as they are.
    static func acknowledge(_ db: Connection, id: Int64, by actor: String, role: Role?, note: String?, at ms: Int64) throws {
        try db.execute("""
            UPDATE alerts SET state = 'acknowledged', acknowledged_at = ?1, acknowledged_by = ?2, acknowledge_note = ?3, updated_at = ?1,
                new_data_at = NULL,
                first_acknowledged_role = CASE WHEN first_acknowledged_at IS NULL THEN ?4 ELSE first_acknowledged_role END,
                first_acknowledge_note = CASE WHEN first_acknowledged_at IS NULL THEN ?3 ELSE first_acknowledge_note END,
                first_acknowledged_at = COALESCE(first_acknowledged_at, ?1)
            WHERE id = ?5
            """, [ms, actor, note, role?.rawValue, id])
    }

    static func resolve(_ db: Connection, id: Int64, by actor: String, note: String, sodium: Double?, at ms: Int64) throws {
        try db.execute("""
            UPDATE alerts SET state = 'resolved', resolved_at = ?, resolved_by = ?, resolve_note = ?, resolve_sodium = ?, updated_at = ?
            WHERE id = ?
            """, [ms, actor, note, sodium, ms, id])
    }

    // MARK: escalation steps and recipients

    /// Schedules a tier of a ladder (once: a repeated call changes nothing).
    static func scheduleStep(_ db: Connection, alertId: Int64, ladder: Int, tier: Int, dueAt: Int64) throws {
        try db.execute("INSERT OR IGNORE INTO escalation_steps (alert_id, ladder, tier, due_at) VALUES (?, ?, ?, ?)",
                       [alertId, ladder, tier, dueAt])
    }

    struct DueStep: Sendable { var alertId: Int64; var ladder: Int; var tier: Int }

    /// Unfired steps of current ladders due by `ms`: tier 0 of any unresolved alert, later tiers
    /// only while the alert is open (acknowledged stops the climb). A withdrawn patient's
    /// missing-data alerts climb no further: nobody expects their data any more (docs/clinical-
    /// rules.md §8); their evaluation alerts keep their ladder, a measured red stays a red.
    /// Oldest first.
    static func dueSteps(_ db: Connection, now ms: Int64, alertId: Int64?) throws -> [DueStep] {
        let filter = alertId == nil ? "" : " AND a.id = ?"
        var params: [(any SQLiteBindable)?] = [ms]
        if let alertId { params.append(alertId) }
        return try db.query("""
            SELECT s.alert_id, s.ladder, s.tier FROM escalation_steps s JOIN alerts a ON a.id = s.alert_id
            JOIN patients p ON p.id = a.patient_id
            WHERE s.fired_at IS NULL AND s.due_at <= ? AND s.ladder = a.ladder
              AND (s.tier = 0 OR a.state = 'open') AND a.state != 'resolved'
              AND (p.withdrawn_at IS NULL OR a.kind = 'evaluation')\(filter)
            ORDER BY s.due_at, s.tier
            """, params).map { DueStep(alertId: try $0.int64(0), ladder: try $0.int(1), tier: try $0.int(2)) }
    }

    static func markFired(_ db: Connection, _ step: DueStep, at ms: Int64) throws {
        try db.execute("UPDATE escalation_steps SET fired_at = ? WHERE alert_id = ? AND ladder = ? AND tier = ?",
                       [ms, step.alertId, step.ladder, step.tier])
    }

    static func addRecipients(_ db: Connection, alertId: Int64, hooks: [String]) throws {
        for hook in hooks {
            try db.execute("INSERT OR IGNORE INTO alert_recipients (alert_id, hook) VALUES (?, ?)", [alertId, hook])
        }
    }

    /// The hooks that heard of an alert, by name.
    static func recipients(_ db: Connection, alertId: Int64) throws -> [String] {
        try db.query("SELECT hook FROM alert_recipients WHERE alert_id = ? ORDER BY hook", [alertId]).map { try $0.string(0) }
    }

    // MARK: staff views

    private static let viewSelect = """
        SELECT a.*, p.study_id, (SELECT COUNT(*) FROM escalation_steps s WHERE s.alert_id = a.id AND s.fired_at IS NOT NULL) AS fired
        FROM alerts a JOIN patients p ON p.id = a.patient_id
        """

    /// Alerts newest first; `before`: ids below it; `limit`: at most that many (nil: all);
    /// `levels`, `states`: only those (nil: any); `offset`: skips that many. Every view carries
    /// its earlier acknowledgements (AlertRepository+History).
    static func list(_ db: Connection, openOnly: Bool, before: Int64? = nil, limit: Int? = nil,
                     levels: Set<Level>? = nil, states: Set<AlertState>? = nil, offset: Int = 0,
                     scope: SiteScope = .allSites) throws -> [AlertView] {
        var filter: [String] = openOnly ? ["a.state != 'resolved'"] : []
        if !scope.isAllSites { filter.append(scope.condition("p.site_id")) }
        var params: [(any SQLiteBindable)?] = []
        if let before { filter.append("a.id < ?"); params.append(before) }
        // Sorted, so the same filter is the same statement (the statement cache).
        if let levels { filter.append(inList("a.level", levels.map(\.rawValue).sorted(), &params)) }
        if let states { filter.append(inList("a.state", states.map(\.rawValue).sorted(), &params)) }
        params.append(limit ?? -1)   // LIMIT -1: no limit
        params.append(offset)
        let sql = "\(viewSelect) \(filter.isEmpty ? "" : "WHERE " + filter.joined(separator: " AND ")) ORDER BY a.id DESC LIMIT ? OFFSET ?"
        return try complete(db, db.query(sql, params).map(view))
    }

    /// `column IN (?, …)` binding `values`; an empty set matches nothing.
    private static func inList(_ column: String, _ values: [String], _ params: inout [(any SQLiteBindable)?]) -> String {
        guard !values.isEmpty else { return "0" }
        params.append(contentsOf: values.map { $0 as (any SQLiteBindable)? })
        return "\(column) IN (\(values.map { _ in "?" }.joined(separator: ", ")))"
    }

    /// One patient's alerts, oldest first (the clinical report).
    static func views(_ db: Connection, patientId: Int64) throws -> [AlertView] {
        try complete(db, db.query("\(viewSelect) WHERE a.patient_id = ? ORDER BY a.id", [patientId]).map(view))
    }

    static func view(_ db: Connection, id: Int64) throws -> AlertView? {
        try complete(db, db.queryOne("\(viewSelect) WHERE a.id = ?", [id]).map { [try view($0)] } ?? [])
            .first
    }

    static func view(_ r: Row) throws -> AlertView {
        func transition(_ prefix: String, note: String) throws -> AlertView.Transition? {
            guard let at = try r.optionalInt64("\(prefix)_at") else { return nil }
            return AlertView.Transition(at: at, by: try r.optionalString("\(prefix)_by") ?? "", note: try r.optionalString(note))
        }
        return AlertView(id: try r.int64("id"), studyId: try r.string("study_id"), date: try date(r.string("date")),
                         pod: try r.int("pod"), kind: try enumValue(r.string("kind")), level: try enumValue(r.string("level")),
                         state: try enumValue(r.string("state")), reasons: StoredReasonsColumn.decode(try r.string("reasons")),
                         openedAt: try r.int64("opened_at"), tiersFired: try r.int("fired"),
                         acknowledged: try transition("acknowledged", note: "acknowledge_note"),
                         resolved: try transition("resolved", note: "resolve_note"),
                         resolveSodium: try r.optionalDouble("resolve_sodium"),
                         worsenedAt: try r.int("ladder") > 1 ? try r.int64("ladder_started_at") : nil,
                         lastDate: try r.optionalString("last_date").map(date), mergedInto: try r.optionalInt64("merged_into"),
                         newDataAt: try r.optionalInt64("new_data_at"))
    }

    /// Views with what other tables hold about them: earlier acknowledgements, contacts, days.
    static func complete(_ db: Connection, _ views: [AlertView]) throws -> [AlertView] {
        try withDays(db, withContacts(db, withEarlierAcknowledgements(db, views)))
    }

    // MARK: REDCap alert_log

    private static let logSelect = """
        SELECT a.id, p.study_id, a.instance, a.kind, a.level, a.date, a.pod, a.reasons, a.opened_at, a.first_acknowledged_at,
               a.first_acknowledged_role, a.resolved_at, a.resolve_sodium, \(logNamedColumns)
        FROM alerts a JOIN patients p ON p.id = a.patient_id
        """

    /// The `alert_log` values read by name (after the numbered ones `logEntry` reads): the notes
    /// and the contact attempts.
    static let logNamedColumns = """
        a.first_acknowledge_note AS log_ack_note, a.resolve_note AS log_resolution_note,
               (SELECT COUNT(*) FROM contacts c WHERE c.alert_id = a.id) AS log_contact_attempts,
               (SELECT MIN(c.contact_at) FROM contacts c
                WHERE c.alert_id = a.id AND c.outcome IN ('reached', 'patient_called')) AS log_reached_at,
               a.last_date AS log_last_date
        """

    static func logEntry(_ db: Connection, id: Int64) throws -> AlertLogEntry? {
        try db.queryOne("\(logSelect) WHERE a.id = ?", [id]).map(logEntry)
    }

    /// Every alert, oldest first (`sync export-all`, `sync reconcile`).
    static func logEntries(_ db: Connection) throws -> [AlertLogEntry] {
        try db.query("\(logSelect) ORDER BY a.id").map(logEntry)
    }

    /// One patient's alerts, oldest first (a transfer queues them again with the new site's DAG).
    static func logEntries(_ db: Connection, patientId: Int64) throws -> [AlertLogEntry] {
        try db.query("\(logSelect) WHERE a.patient_id = ? ORDER BY a.id", [patientId]).map(logEntry)
    }

    /// The alerts that migration `v4_alert_log` found and that have not been queued for REDCap yet.
    static func backfill(_ db: Connection) throws -> [AlertLogEntry] {
        try db.query("\(logSelect) JOIN alert_log_backfill b ON b.alert_id = a.id ORDER BY a.id").map(logEntry)
    }

    static func hasBackfill(_ db: Connection) throws -> Bool {
        try db.queryOne("SELECT EXISTS (SELECT 1 FROM alert_log_backfill) AS any")!.int("any") == 1
    }

    static func clearBackfill(_ db: Connection) throws {
        try db.execute("DELETE FROM alert_log_backfill", [])
    }

    static func logEntry(_ r: Row) throws -> AlertLogEntry {
        guard let instance = try r.optionalInt64(2) else { throw StoreCorruption("alert \(try r.int64(0)) has no instance") }
        return AlertLogEntry(alertId: try r.int64(0), studyId: try r.string(1), instance: Int(instance), kind: try enumValue(r.string(3)),
                             level: try enumValue(r.string(4)), date: try date(r.string(5)), pod: try r.int(6),
                             reasonCodes: StoredReasonsColumn.decode(try r.string(7)).map(\.code), openedAt: try r.int64(8),
                             firstAcknowledgedAt: try r.optionalInt64(9),
                             firstAcknowledgedRole: try r.optionalString(10).map { try enumValue($0) },
                             resolvedAt: try r.optionalInt64(11), resolveSodium: try r.optionalDouble(12),
                             acknowledgeNote: try r.optionalString("log_ack_note"),
                             resolutionNote: try r.optionalString("log_resolution_note"),
                             contactAttempts: try r.int("log_contact_attempts"), reachedAt: try r.optionalInt64("log_reached_at"),
                             lastDate: try r.optionalString("log_last_date").map(date))
    }

    /// Every patient's unresolved alerts: how many and the highest level, by patient id.
    /// Every unresolved alert, or the patient's (the current level reads them, `CurrentLevel`).
    static func unresolved(_ db: Connection, patientId: Int64? = nil, scope: SiteScope = .allSites) throws -> [Alert] {
        if let patientId {
            return try db.query("SELECT \(columns) FROM alerts WHERE patient_id = ? AND state != 'resolved' ORDER BY id", [patientId])
                .map(decode)
        }
        let reach = scope.patients("patient_id").map { " AND \($0)" } ?? ""
        return try db.query("SELECT \(columns) FROM alerts WHERE state != 'resolved'\(reach) ORDER BY id").map(decode)
    }

    // MARK: column decoding

    static func date(_ text: String) throws -> LocalDate {
        guard let d = LocalDate(text) else { throw StoreCorruption("alerts.date holds \(text.prefix(20))") }
        return d
    }

    static func enumValue<T: RawRepresentable>(_ text: String) throws -> T where T.RawValue == String {
        guard let v = T(rawValue: text) else { throw StoreCorruption("alerts holds an unknown \(T.self) \(text.prefix(20))") }
        return v
    }
}

/// A stored value the schema's CHECKs should have made impossible.
struct StoreCorruption: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
