/// The REDCap outbox. One row per REDCap record/instance (coalescing: a newer version of the
/// same row replaces the pending one, and `version` tells the sender whether what it sent is
/// still the newest). Rows are enqueued in the same transaction as the data they carry.
enum SyncSchema {
    static let v1 = """
        CREATE TABLE sync_outbox (
            id INTEGER PRIMARY KEY,
            record TEXT NOT NULL,                 -- the study ID (REDCap record name)
            record_key TEXT NOT NULL,             -- lower-cased: REDCap matches names case-insensitively
            instance INTEGER NOT NULL,            -- 0: the baseline row; N ≥ 1: daily_monitoring instance (POD)
            payload TEXT NOT NULL,                -- the flat row as a JSON object
            version INTEGER NOT NULL DEFAULT 1,
            state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'dead')),
            enqueued_at INTEGER NOT NULL,         -- first enqueue of the pending version chain
            updated_at INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            UNIQUE (record_key, instance)
        ) STRICT;
        CREATE INDEX sync_outbox_due ON sync_outbox (state, next_attempt_at, id);

        -- One row: whether the sync is halted and why, and its last successes and failures.
        CREATE TABLE sync_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            halted INTEGER NOT NULL DEFAULT 0,
            halt_reason TEXT,
            halted_at INTEGER,
            last_success_at INTEGER,
            last_failure_at INTEGER,
            last_failure TEXT,
            consecutive_failures INTEGER NOT NULL DEFAULT 0,
            sent_rows INTEGER NOT NULL DEFAULT 0
        ) STRICT;
        INSERT INTO sync_state (id) VALUES (1);
        """
}
