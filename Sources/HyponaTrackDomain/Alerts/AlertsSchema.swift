/// Alerts and their escalation. Shipped in migration `v3_alerts` together with the hook
/// outbox (`HooksSchema`) and the scheduler's memory (`SchedulerSchema`); see `Schema.v3Alerts`.
enum AlertsSchema {
    static let v1 = """
        -- One alert per patient, day and kind while it is not resolved; a worsening after resolve
        -- opens a new one (the partial unique index allows resolved ones beside it).
        CREATE TABLE alerts (
            id INTEGER PRIMARY KEY,
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            date TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('evaluation', 'missing_checkin', 'no_data_2d')),
            level TEXT NOT NULL CHECK (level IN ('yellow', 'red')),
            reasons TEXT NOT NULL,              -- JSON array of reason objects (highest reached)
            pod INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('open', 'acknowledged', 'resolved')),
            opened_at INTEGER NOT NULL,
            ladder_started_at INTEGER NOT NULL, -- opening or last worsening: tiers count from here
            ladder INTEGER NOT NULL DEFAULT 1,  -- bumped by a worsening; older tiers are void
            acknowledged_at INTEGER, acknowledged_by TEXT, acknowledge_note TEXT,
            resolved_at INTEGER, resolved_by TEXT, resolve_note TEXT, resolve_sodium REAL,
            updated_at INTEGER NOT NULL
        ) STRICT;
        CREATE UNIQUE INDEX alerts_live ON alerts (patient_id, date, kind) WHERE state != 'resolved';
        CREATE INDEX alerts_by_state ON alerts (state, id);

        -- The tiers still to fire: due at an absolute time (no drift), fired once (fired_at set in
        -- the transaction that queues the event), void when the ladder restarted or the alert
        -- was acknowledged.
        CREATE TABLE escalation_steps (
            alert_id INTEGER NOT NULL REFERENCES alerts(id),
            ladder INTEGER NOT NULL,
            tier INTEGER NOT NULL,
            due_at INTEGER NOT NULL,
            fired_at INTEGER,
            PRIMARY KEY (alert_id, ladder, tier)
        ) STRICT;
        CREATE INDEX escalation_due ON escalation_steps (fired_at, due_at);

        -- Which hooks heard of an alert (they also get its acknowledgement and resolution).
        CREATE TABLE alert_recipients (
            alert_id INTEGER NOT NULL REFERENCES alerts(id),
            hook TEXT NOT NULL,
            PRIMARY KEY (alert_id, hook)
        ) STRICT;
        """
}

/// Migration `v4_alert_log`, the alerts' part (the outbox's is `SyncSchema.v2`): each alert's
/// REDCap `alert_log` instance and its first acknowledgement, kept apart from `acknowledged_at`
/// (which a worsening clears).
extension AlertsSchema {
    static let v2 = """
        -- instance: 1 + the number of the patient's earlier alerts (by creation), fixed at opening.
        -- first_acknowledged_*: the first acknowledgement and the acknowledging staff member's
        -- role then; a worsening clears acknowledged_at but never these.
        ALTER TABLE alerts ADD COLUMN instance INTEGER;
        ALTER TABLE alerts ADD COLUMN first_acknowledged_at INTEGER;
        ALTER TABLE alerts ADD COLUMN first_acknowledged_role TEXT CHECK (first_acknowledged_role IN ('admin', 'nurse', 'viewer'));

        -- Existing alerts: numbered in the order they were created (ids grow with creation).
        UPDATE alerts SET instance = n.instance
        FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY patient_id ORDER BY id) AS instance FROM alerts) AS n
        WHERE alerts.id = n.id;
        CREATE UNIQUE INDEX alerts_instance ON alerts (patient_id, instance);

        -- Their first acknowledgement is in the audit trail (a worsening since may have cleared
        -- acknowledged_at); the role is the acknowledging member's role in the staff table now.
        WITH first AS (
            SELECT CAST(json_extract(details, '$.alertId') AS INTEGER) AS alert_id, MIN(seq) AS seq
            FROM audit_log WHERE action = 'alert.acknowledge' GROUP BY 1
        )
        UPDATE alerts SET first_acknowledged_at = l.at,
            first_acknowledged_role = (SELECT role FROM staff WHERE l.actor LIKE 'staff:%' AND name = substr(l.actor, 7))
        FROM first JOIN audit_log l ON l.seq = first.seq
        WHERE alerts.id = first.alert_id;
        UPDATE alerts SET first_acknowledged_at = acknowledged_at,
            first_acknowledged_role = (SELECT role FROM staff WHERE acknowledged_by LIKE 'staff:%' AND name = substr(acknowledged_by, 7))
        WHERE first_acknowledged_at IS NULL AND acknowledged_at IS NOT NULL;

        -- Alerts older than this migration whose alert_log row has not been queued yet: the first
        -- start with the REDCap sync configured queues them and empties the list.
        CREATE TABLE alert_log_backfill (
            alert_id INTEGER PRIMARY KEY REFERENCES alerts(id)
        ) STRICT;
        INSERT INTO alert_log_backfill (alert_id) SELECT id FROM alerts;
        """
}
