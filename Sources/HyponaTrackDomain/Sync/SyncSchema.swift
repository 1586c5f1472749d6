/// The REDCap outbox. One row per REDCap row — record, instrument and instance since `v2`
/// (coalescing: a newer version of the same row replaces the pending one, and `version` tells
/// the sender whether what it sent is still the newest). Rows are enqueued in the same
/// transaction as the data they carry. `v1` is migration `v2_sync` as shipped.
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

/// Migration `v4_alert_log`, the outbox's part: with a second repeating instrument (`alert_log`)
/// an instance number no longer tells a row apart (alert 3 and POD 3), so rows are keyed by
/// record, instrument and instance. SQLite cannot change a table's UNIQUE constraint in place:
/// the table is rebuilt (https://sqlite.org/lang_altertable.html#otheralter); rows keep their id
/// and version, so a batch in flight during the upgrade is still recognised when confirmed.
extension SyncSchema {
    static let v2 = """
        CREATE TABLE sync_outbox_v2 (
            id INTEGER PRIMARY KEY,
            record TEXT NOT NULL,                 -- the study ID (REDCap record name)
            record_key TEXT NOT NULL,             -- lower-cased: REDCap matches names case-insensitively
            instrument TEXT NOT NULL,             -- patient_baseline, daily_monitoring or alert_log
            instance INTEGER NOT NULL,            -- 0 for the baseline; the POD; the alert's number
            payload TEXT NOT NULL,                -- the flat row as a JSON object
            version INTEGER NOT NULL DEFAULT 1,
            state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'dead')),
            enqueued_at INTEGER NOT NULL,         -- first enqueue of the pending version chain
            updated_at INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            UNIQUE (record_key, instrument, instance)
        ) STRICT;
        INSERT INTO sync_outbox_v2 (id, record, record_key, instrument, instance, payload, version, state, enqueued_at,
                                    updated_at, attempts, next_attempt_at, last_error)
            SELECT id, record, record_key, CASE WHEN instance = 0 THEN 'patient_baseline' ELSE 'daily_monitoring' END,
                   instance, payload, version, state, enqueued_at, updated_at, attempts, next_attempt_at, last_error
            FROM sync_outbox;
        DROP TABLE sync_outbox;
        ALTER TABLE sync_outbox_v2 RENAME TO sync_outbox;
        CREATE INDEX sync_outbox_due ON sync_outbox (state, next_attempt_at, id);
        """
}

/// Migration `v7_sync_in_flight`: a request whose outcome is unknown (killed daemon, timeout, a
/// dropped connection, a 5xx) may still be applied by REDCap after a newer version of its row
/// was sent, leaving the older values there. Rows remember when they were last put on the wire
/// (`in_flight_at`, set before the request) and since when an earlier attempt's outcome is
/// unknown (`uncertain_since`); such a row is sent once more after the late request could have
/// landed (REDCapSync.Settings.settleSeconds) before it leaves the outbox.
extension SyncSchema {
    static let v3 = """
        ALTER TABLE sync_outbox ADD COLUMN in_flight_at INTEGER;
        ALTER TABLE sync_outbox ADD COLUMN uncertain_since INTEGER;
        """
}

/// Migration `v11_sync_requests`: the REDCap requests of the last minute, so the rate cap holds
/// across restarts (``SyncRequestJournal``). A few hundred rows at most: older ones are deleted
/// as new ones are written.
extension SyncSchema {
    static let v4 = """
        CREATE TABLE sync_requests (
            id INTEGER PRIMARY KEY,
            started_at INTEGER NOT NULL,          -- epoch ms, written before the request went out
            answered_at INTEGER                   -- epoch ms of the answer; NULL: in flight, or the daemon died waiting
        ) STRICT;
        """
}

/// Migration `v12_sync_unhealthy_reported`: whether `sync.unhealthy` was raised for the current
/// backlog, set in the transaction that queues the event, so a restart does not raise it again.
extension SyncSchema {
    static let v5 = """
        ALTER TABLE sync_state ADD COLUMN unhealthy_reported INTEGER NOT NULL DEFAULT 0;
        """
}
