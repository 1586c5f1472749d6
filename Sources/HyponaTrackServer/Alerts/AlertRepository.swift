import HTJSON
import SQLite

/// Reads and writes `alerts`. Callers own the transaction.
enum AlertRepository {
    static let columns = "id, patient_id, date, kind, level, reasons, pod, state, ladder, ladder_started_at"

    static func decode(_ r: Row) throws -> Alerting.Alert {
        Alerting.Alert(id: try r.int64(0), patientId: try r.int64(1), date: try r.string(2), kind: try r.string(3),
                       level: try r.string(4), reasons: (try? JSONParser.parse(try r.string(5))) ?? .array([]), pod: try r.int(6),
                       state: try r.string(7), ladder: try r.int(8), ladderStartedAt: try r.int64(9))
    }

    static func load(_ db: Connection, id: Int64) throws -> Alerting.Alert? {
        try db.queryOne("SELECT \(columns) FROM alerts WHERE id = ?", [id]).map(decode)
    }

    static func live(_ db: Connection, patientId: Int64, date: String, kind: String) throws -> Alerting.Alert? {
        try db.queryOne("SELECT \(columns) FROM alerts WHERE patient_id = ? AND date = ? AND kind = ? AND state != 'resolved'",
                        [patientId, date, kind]).map(decode)
    }

    static func lastResolved(_ db: Connection, patientId: Int64, date: String, kind: String) throws -> Alerting.Alert? {
        try db.queryOne("""
            SELECT \(columns) FROM alerts WHERE patient_id = ? AND date = ? AND kind = ? AND state = 'resolved' ORDER BY id DESC LIMIT 1
            """, [patientId, date, kind]).map(decode)
    }

    static func open(_ db: Connection, patientId: Int64, date: String, kind: String, level: String, reasons: JSONValue, pod: Int,
                     at ms: Int64) throws -> Int64 {
        try db.execute("""
            INSERT INTO alerts (patient_id, date, kind, level, reasons, pod, state, opened_at, ladder_started_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?, ?)
            """, [patientId, date, kind, level, JSONSerializer.string(reasons), pod, ms, ms, ms])
        return db.lastInsertRowID
    }

    /// A worsening: higher level or reasons, a new ladder, and open again if it was acknowledged.
    static func worsen(_ db: Connection, _ a: Alerting.Alert, at ms: Int64) throws {
        try db.execute("""
            UPDATE alerts SET level = ?, reasons = ?, ladder = ?, ladder_started_at = ?, state = 'open',
                acknowledged_at = NULL, acknowledged_by = NULL, acknowledge_note = NULL, updated_at = ?
            WHERE id = ?
            """, [a.level, JSONSerializer.string(a.reasons), a.ladder, a.ladderStartedAt, ms, a.id])
    }

    static func updateReasons(_ db: Connection, id: Int64, reasons: JSONValue, at ms: Int64) throws {
        try db.execute("UPDATE alerts SET reasons = ?, updated_at = ? WHERE id = ?", [JSONSerializer.string(reasons), ms, id])
    }

    /// The API form of alerts, newest first.
    static func list(_ db: Connection, openOnly: Bool, limit: Int = 500) throws -> JSONValue {
        let rows = try db.query("""
            SELECT a.*, p.study_id, (SELECT COUNT(*) FROM escalation_steps s WHERE s.alert_id = a.id AND s.fired_at IS NOT NULL) AS fired
            FROM alerts a JOIN patients p ON p.id = a.patient_id
            \(openOnly ? "WHERE a.state != 'resolved'" : "") ORDER BY a.id DESC LIMIT ?
            """, [limit])
        return .array(try rows.map(json))
    }

    static func json(_ r: Row) throws -> JSONValue {
        func time(_ c: String) throws -> JSONValue { .string(try r.optionalInt64(c).map { iso8601UTC(milliseconds: $0) }) }
        return ["id": .number(Double(try r.int64("id"))), "studyId": .string(try r.string("study_id")),
                "date": .string(try r.string("date")), "pod": .int(try r.int("pod")), "kind": .string(try r.string("kind")),
                "level": .string(try r.string("level")), "state": .string(try r.string("state")),
                "reasons": (try? JSONParser.parse(try r.string("reasons"))) ?? .array([]),
                "openedAt": try time("opened_at"), "tiersFired": .int(try r.int("fired")),
                "acknowledgedAt": try time("acknowledged_at"), "acknowledgedBy": .string(try r.optionalString("acknowledged_by")),
                "acknowledgeNote": .string(try r.optionalString("acknowledge_note")),
                "resolvedAt": try time("resolved_at"), "resolvedBy": .string(try r.optionalString("resolved_by")),
                "resolveNote": .string(try r.optionalString("resolve_note")), "resolveSodium": .double(try r.optionalDouble("resolve_sodium"))]
    }

    static func openCount(_ db: Connection, patientId: Int64) throws -> Int {
        try db.queryOne("SELECT COUNT(*) FROM alerts WHERE patient_id = ? AND state != 'resolved'", [patientId])!.int(0)
    }
}
