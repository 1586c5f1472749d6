/// Alerts, their escalation, the hook outbox and the scheduler's memory.
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

        -- Durable delivery: one row per event and hook, enqueued in the transaction that created
        -- the event; `event_id` is the stable webhook-id.
        CREATE TABLE hook_outbox (
            id INTEGER PRIMARY KEY,
            event_id TEXT NOT NULL,
            hook TEXT NOT NULL,
            type TEXT NOT NULL,
            body TEXT NOT NULL,
            state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dead')),
            created_at INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at INTEGER NOT NULL DEFAULT 0,
            delivered_at INTEGER,
            last_error TEXT,
            UNIQUE (event_id, hook)
        ) STRICT;
        CREATE INDEX hook_outbox_due ON hook_outbox (state, next_attempt_at, id);

        -- Endpoints that answered 410 Gone stay disabled (until reconfigured under a new name).
        CREATE TABLE hook_state (
            hook TEXT PRIMARY KEY,
            disabled_at INTEGER,
            disabled_reason TEXT
        ) STRICT;

        -- What the scheduler already decided, so nothing fires twice across restarts.
        CREATE TABLE scheduler_marks (
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            date TEXT NOT NULL,
            mark TEXT NOT NULL,                 -- 'missing_checkin', 'no_data_2d', 'reminder@HH:MM:kind'
            decided_at INTEGER NOT NULL,
            outcome TEXT NOT NULL,              -- 'raised', 'not_needed', 'emitted', 'skipped'
            PRIMARY KEY (patient_id, date, mark)
        ) STRICT;

        CREATE TABLE scheduler_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            last_tick_at INTEGER
        ) STRICT;
        INSERT INTO scheduler_state (id) VALUES (1);
        """
}
