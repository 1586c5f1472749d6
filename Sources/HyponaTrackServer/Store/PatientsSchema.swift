/// The core tables of the store: patients, their days and list items, evaluations.
/// Times are INTEGER milliseconds since the epoch (`*_at`); local dates are TEXT `YYYY-MM-DD`.
enum PatientsSchema {
    static let v1 = """
        CREATE TABLE patients (
            id INTEGER PRIMARY KEY,
            study_id TEXT NOT NULL,
            -- REDCap matches record names case-insensitively, so do we.
            study_id_key TEXT NOT NULL UNIQUE,
            profile TEXT NOT NULL,              -- the PatientProfile as JSON (ProfileCodec)
            enrolled_at INTEGER NOT NULL,
            enrolled_by TEXT NOT NULL,
            activated_at INTEGER,
            withdrawn_at INTEGER,
            withdrawal_date TEXT,
            withdrawal_reason TEXT,
            updated_at INTEGER NOT NULL
        ) STRICT;

        -- One row, rewritten by the health check: proves the database can be written.
        CREATE TABLE heartbeat (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL) STRICT;
        """
}
