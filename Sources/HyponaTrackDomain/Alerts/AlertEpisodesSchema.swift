import Foundation
import HyponaTrackCore
import SQLite

/// Migration `v17_alert_episodes` (docs/product.md, third round, C, "Alerts as episodes"): an
/// alert covers days. Each covered day keeps its own level and reasons (`alert_days`); the
/// alert's `date` is its first day and `last_date` its last; a patient has at most one
/// unresolved alert per kind. Existing alerts cover their one day; a patient's unresolved alerts
/// of one kind are merged into the newest (`AlertEpisodeMerge`).
enum AlertEpisodesSchema {
    static let v1 = """
        -- The days an alert covers, each with the level and reasons its evaluation gave.
        CREATE TABLE alert_days (
            alert_id INTEGER NOT NULL REFERENCES alerts(id),
            date TEXT NOT NULL,
            level TEXT NOT NULL CHECK (level IN ('yellow', 'red')),
            reasons TEXT NOT NULL,              -- JSON array of reason objects
            pod INTEGER NOT NULL,
            added_at INTEGER NOT NULL,
            PRIMARY KEY (alert_id, date)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX alert_days_by_date ON alert_days (date, alert_id);
        INSERT INTO alert_days (alert_id, date, level, reasons, pod, added_at)
            SELECT id, date, level, reasons, pod, opened_at FROM alerts;

        -- last_date: the last day covered. merged_into: the alert this one was merged into when
        -- the database was upgraded (it is resolved, and left out of acknowledgement and
        -- resolution times and of the alert burden). new_data_at: a day joined the alert after
        -- its acknowledgement (cleared by the next acknowledgement).
        ALTER TABLE alerts ADD COLUMN last_date TEXT;
        ALTER TABLE alerts ADD COLUMN merged_into INTEGER;             -- an alerts.id
        ALTER TABLE alerts ADD COLUMN new_data_at INTEGER;
        UPDATE alerts SET last_date = date;
        """

    /// After the merge: one unresolved alert per patient and kind.
    static let v1Index = """
        DROP INDEX alerts_live;
        CREATE UNIQUE INDEX alerts_live ON alerts (patient_id, kind) WHERE state != 'resolved';
        """

    static func migrate(_ db: Connection) throws {
        try db.execute(v1)
        try AlertEpisodeMerge.mergeUnresolved(db, at: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
        try db.execute(v1Index)
    }
}

/// The upgrade's merge: a patient's unresolved alerts of one kind become one, the newest. It
/// covers every day of the merged ones, holds the highest level and the union of their reasons,
/// and starts on the first of their days; the others are resolved with the note `merged into
/// #N` and `merged_into` set, audited, with no hook event; both are queued for REDCap's
/// `alert_log` (through `alert_log_backfill`, queued at the next start with the sync on).
enum AlertEpisodeMerge {
    static func mergeUnresolved(_ db: Connection, at ms: Int64) throws {
        let groups = try db.query("""
            SELECT patient_id, kind FROM alerts WHERE state != 'resolved' GROUP BY patient_id, kind HAVING COUNT(*) > 1
            """).map { (try $0.int64(0), try $0.string(1)) }
        for (patientId, kind) in groups {
            let ids = try db.query("SELECT id FROM alerts WHERE patient_id = ? AND kind = ? AND state != 'resolved' ORDER BY id",
                                   [patientId, kind]).map { try $0.int64(0) }
            guard let kept = ids.last else { continue }
            let merged = ids.dropLast()
            let studyId = try db.queryOne("SELECT study_id FROM patients WHERE id = ?", [patientId])?.string(0) ?? "?"
            for id in merged {
                try db.execute("INSERT OR IGNORE INTO alert_days SELECT ?, date, level, reasons, pod, added_at FROM alert_days WHERE alert_id = ?",
                               [kept, id])
                try db.execute("""
                    UPDATE alerts SET state = 'resolved', resolved_at = ?1, resolved_by = 'system', resolve_note = ?2,
                        merged_into = ?3, updated_at = ?1 WHERE id = ?4
                    """, [ms, "merged into #\(kept)", kept, id])
                try AuditLog.append(db, at: ms, actor: "system", action: .alertMerged, subject: studyId,
                                    details: AuditDetails.AlertMerged(alertId: id, mergedInto: kept))
                try db.execute("INSERT OR IGNORE INTO alert_log_backfill (alert_id) VALUES (?)", [id])
            }
            try AlertRepository.refreshSpan(db, alertId: kept, at: ms)
            try db.execute("INSERT OR IGNORE INTO alert_log_backfill (alert_id) VALUES (?)", [kept])
        }
    }
}
