import HyponaTrackCore
import SQLite

/// An alert as the alerts CSV shows it: its REDCap `alert_log` entry and the staff names behind
/// the first acknowledgement and the resolution (docs/product.md, "Console details").
struct AlertExportEntry: Sendable, Equatable {
    var log: AlertLogEntry
    var patientId: Int64
    /// The alert's reasons with their values (the log keeps only the codes): `reasons_text`.
    var reasons: [StoredReason]
    /// Who acknowledged first (the member's name, without `staff:`), nil while never acknowledged.
    var firstAcknowledgedBy: String?
    var resolvedBy: String?
}

/// An alert's kind, level and times, for the statistics.
struct AlertTiming: Sendable, Equatable {
    var patientId: Int64
    var kind: AlertKind
    var level: Level
    /// ms since the epoch.
    var openedAt: Int64
    var firstAcknowledgedAt: Int64?
    var resolvedAt: Int64?
    /// The alert's first day (the outcome report's lead times and positive predictive value).
    var firstDay: LocalDate? = nil
}

extension AlertRepository {
    /// Alerts for the CSV export, by study ID then creation; one patient's when `patientId` is given.
    /// The first acknowledger comes from the audit trail (`alert.acknowledge` rows, found through
    /// the subject index): `acknowledged_by` holds the latest one and a worsening clears it,
    /// while `alert_ack_at` is the first acknowledgement.
    static func exportEntries(_ db: Connection, patientId: Int64?) throws -> [AlertExportEntry] {
        let filter = patientId == nil ? "" : "WHERE a.patient_id = ?"
        let params: [(any SQLiteBindable)?] = patientId.map { [$0] } ?? []
        return try db.query("""
            SELECT a.id, p.study_id, a.instance, a.kind, a.level, a.date, a.pod, a.reasons, a.opened_at, a.first_acknowledged_at,
                   a.first_acknowledged_role, a.resolved_at, a.resolve_sodium, a.patient_id, a.resolved_by,
                   COALESCE((SELECT l.actor FROM audit_log l
                             WHERE l.subject = p.study_id AND l.action = 'alert.acknowledge'
                               AND json_extract(l.details, '$.alertId') = a.id
                             ORDER BY l.seq LIMIT 1),
                            CASE WHEN a.first_acknowledged_at IS NOT NULL THEN a.acknowledged_by END) AS first_ack_by,
                   \(logNamedColumns)
            FROM alerts a JOIN patients p ON p.id = a.patient_id \(filter)
            ORDER BY p.study_id_key, a.id
            """, params).map { r in
            AlertExportEntry(log: try logEntry(r), patientId: try r.int64(13), reasons: StoredReasonsColumn.decode(try r.string(7)),
                             firstAcknowledgedBy: staffName(try r.optionalString(15)),
                             resolvedBy: staffName(try r.optionalString(14)))
        }
    }

    /// Every alert's kind, level and times; one patient's when `patientId` is given. An alert the
    /// upgrade to episodes merged into another (`merged_into`) is left out: it is part of that
    /// one, and its resolution by the upgrade is no one's response time.
    static func timings(_ db: Connection, patientId: Int64?) throws -> [AlertTiming] {
        let filter = patientId == nil ? "WHERE merged_into IS NULL" : "WHERE merged_into IS NULL AND patient_id = ?"
        let params: [(any SQLiteBindable)?] = patientId.map { [$0] } ?? []
        return try db.query("""
            SELECT patient_id, kind, level, opened_at, first_acknowledged_at, resolved_at, date FROM alerts \(filter) ORDER BY id
            """, params).map { r in
            guard let kind = AlertKind(rawValue: try r.string(1)), let level = Level(rawValue: try r.string(2)) else {
                throw StoreCorruption("alerts holds an unknown kind or level")
            }
            return AlertTiming(patientId: try r.int64(0), kind: kind, level: level, openedAt: try r.int64(3),
                               firstAcknowledgedAt: try r.optionalInt64(4), resolvedAt: try r.optionalInt64(5),
                               firstDay: LocalDate(try r.string(6)))
        }
    }

    /// `staff:<name>` → `<name>`; another actor as it is.
    private static func staffName(_ actor: String?) -> String? { actor.map(Principal.displayName(ofActor:)) }
}
