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

    /// Migration `v6_patient_revision`: a counter on each patient that every change to what an
    /// evaluation reads moves on — the patient row itself, its days, list items and lab values —
    /// so a submission computed from a read snapshot can be checked, under the write lock, to
    /// still stand on current data (one indexed read) and is otherwise computed again. Kept by
    /// triggers, so no write path can forget it. (`recursive_triggers` is off, so the
    /// patients trigger's own UPDATE does not fire it again.)
    static let v2: String = {
        let tables = ["days", "symptom_entries", "reaction_tests", "tapping_tests", "desmopressin_doses", "lab_values"]
        var sql = "ALTER TABLE patients ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;\n"
        sql += """
            CREATE TRIGGER patients_revision AFTER UPDATE ON patients WHEN NEW.revision = OLD.revision
            BEGIN UPDATE patients SET revision = OLD.revision + 1 WHERE id = NEW.id; END;

            """
        for table in tables {
            for (event, row) in [("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")] {
                sql += """
                    CREATE TRIGGER \(table)_\(event.lowercased())_revision AFTER \(event) ON \(table)
                    BEGIN UPDATE patients SET revision = revision + 1 WHERE id = \(row).patient_id; END;

                    """
            }
        }
        return sql
    }()
}
