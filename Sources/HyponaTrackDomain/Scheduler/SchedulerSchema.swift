/// What the scheduler already decided: `v1` is part of migration `v3_alerts` (`Schema.v3Alerts`).
enum SchedulerSchema {
    static let v1 = """
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

    /// Migration `v5_scheduler_daily_marks`: what the scheduler decided once a day for the
    /// whole study (not per patient), e.g. the daily `audit.checkpoint`.
    static let v2 = """
        CREATE TABLE scheduler_daily_marks (
            date TEXT NOT NULL,                 -- local date in the study time zone
            mark TEXT NOT NULL,                 -- 'audit.checkpoint'
            decided_at INTEGER NOT NULL,
            PRIMARY KEY (date, mark)
        ) STRICT;
        """
}
