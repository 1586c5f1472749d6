/// The hook outbox and the hooks' state; part of migration `v3_alerts` (`Schema.v3Alerts`).
enum HooksSchema {
    static let v1 = """
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
        """
}
