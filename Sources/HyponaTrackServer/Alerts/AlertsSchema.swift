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
