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
        var sql = "ALTER TABLE patients ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;\n"
        sql += """
            CREATE TRIGGER patients_revision AFTER UPDATE ON patients WHEN NEW.revision = OLD.revision
            BEGIN UPDATE patients SET revision = OLD.revision + 1 WHERE id = NEW.id; END;

            """
        for t in revisionTriggers {
            sql += """
                CREATE TRIGGER \(t.name) AFTER \(t.event) ON \(t.table)
                BEGIN UPDATE patients SET revision = revision + 1 WHERE id = \(t.row).patient_id; END;

                """
        }
        return sql
    }()

    /// One trigger per change to a row an evaluation reads (days, list items, lab values): each
    /// moves that row's patient's revision on. `row` names the changed row inside the trigger.
    private static let revisionTriggers: [(name: String, event: String, table: String, row: String)] =
        ["days", "symptom_entries", "reaction_tests", "tapping_tests", "desmopressin_doses", "lab_values"].flatMap { table in
            [("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")].map { event, row in
                (name: "\(table)_\(event.lowercased())_revision", event: event, table: table, row: row)
            }
        }

    /// Migration `v10_patient_revisions`: the revision moves to a table of its own, one short
    /// row per patient. The triggers of `v2` rewrote the patient's row — its profile JSON, on a
    /// page of its own for each patient — twice per day submission (the day and the item); a
    /// short row on one of a few hot pages costs a third of that and writes fewer pages to the
    /// WAL at each commit. The triggers stay the only writers, so still no write path can forget.
    static let v3: String = {
        // Every trigger naming patients.revision goes before the column does.
        var sql = "DROP TRIGGER patients_revision;\n" + revisionTriggers.map { "DROP TRIGGER \($0.name);\n" }.joined()
        sql += """
            CREATE TABLE patient_revisions (
                patient_id INTEGER PRIMARY KEY REFERENCES patients(id),
                revision INTEGER NOT NULL
            ) STRICT;
            INSERT INTO patient_revisions (patient_id, revision) SELECT id, revision FROM patients;
            ALTER TABLE patients DROP COLUMN revision;
            CREATE TRIGGER patients_revision_insert AFTER INSERT ON patients
            BEGIN INSERT INTO patient_revisions (patient_id, revision) VALUES (NEW.id, 0); END;
            CREATE TRIGGER patients_revision AFTER UPDATE ON patients
            BEGIN UPDATE patient_revisions SET revision = revision + 1 WHERE patient_id = NEW.id; END;

            """
        for t in revisionTriggers {
            sql += """
                CREATE TRIGGER \(t.name) AFTER \(t.event) ON \(t.table)
                BEGIN UPDATE patient_revisions SET revision = revision + 1 WHERE patient_id = \(t.row).patient_id; END;

                """
        }
        return sql
    }()
}
