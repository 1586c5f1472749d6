/// Days, their list items, staff lab values and evaluations. List items are keyed by the
/// client's `id` within (patient, date), which is what makes a retried submission idempotent.
/// Deleted items are kept (soft delete with who, when and why) so nothing disappears silently
/// and a late retry of the same id cannot bring a deleted item back.
enum DaysSchema {
    static let v1 = """
        CREATE TABLE days (
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            date TEXT NOT NULL,
            weight_morning_kg REAL, weight_evening_kg REAL, fluid_intake_ml REAL, urine_sg REAL,
            vomiting_episodes INTEGER,
            emergency_symptoms TEXT NOT NULL DEFAULT '',   -- comma-separated set
            steps INTEGER, hrv_sdnn_ms REAL, sleep_minutes INTEGER, resting_heart_rate INTEGER,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (patient_id, date)
        ) STRICT;

        CREATE TABLE symptom_entries (
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            date TEXT NOT NULL, client_id TEXT NOT NULL, time TEXT NOT NULL,
            slot TEXT NOT NULL CHECK (slot IN ('morning', 'evening')),
            nausea INTEGER NOT NULL, headache INTEGER NOT NULL, fatigue INTEGER NOT NULL,
            confusion INTEGER NOT NULL, muscle_cramps INTEGER NOT NULL, vas INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            deleted_at INTEGER, deleted_by TEXT, deletion_reason TEXT,
            PRIMARY KEY (patient_id, date, client_id)
        ) STRICT;

        CREATE TABLE reaction_tests (
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            date TEXT NOT NULL, client_id TEXT NOT NULL, time TEXT NOT NULL,
            median_ms REAL NOT NULL, mean_ms REAL NOT NULL, errors INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            deleted_at INTEGER, deleted_by TEXT, deletion_reason TEXT,
            PRIMARY KEY (patient_id, date, client_id)
        ) STRICT;

        CREATE TABLE tapping_tests (
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            date TEXT NOT NULL, client_id TEXT NOT NULL, time TEXT NOT NULL,
            taps INTEGER NOT NULL, duration_seconds REAL NOT NULL,
            updated_at INTEGER NOT NULL,
            deleted_at INTEGER, deleted_by TEXT, deletion_reason TEXT,
            PRIMARY KEY (patient_id, date, client_id)
        ) STRICT;

        CREATE TABLE desmopressin_doses (
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            date TEXT NOT NULL, client_id TEXT NOT NULL, time TEXT NOT NULL,
            dose_mcg REAL NOT NULL,
            updated_at INTEGER NOT NULL,
            deleted_at INTEGER, deleted_by TEXT, deletion_reason TEXT,
            PRIMARY KEY (patient_id, date, client_id)
        ) STRICT;

        CREATE TABLE lab_values (
            id INTEGER PRIMARY KEY,
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            date TEXT NOT NULL, time TEXT NOT NULL,
            sodium REAL NOT NULL,
            entered_at INTEGER NOT NULL, entered_by TEXT NOT NULL,
            deleted_at INTEGER, deleted_by TEXT, deletion_reason TEXT
        ) STRICT;
        CREATE INDEX lab_values_by_day ON lab_values (patient_id, date);

        CREATE TABLE evaluations (
            id INTEGER PRIMARY KEY,
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            date TEXT NOT NULL,
            pod INTEGER NOT NULL,
            level TEXT NOT NULL CHECK (level IN ('green', 'yellow', 'red')),
            reasons TEXT NOT NULL,          -- JSON array of {code, level, value, threshold}
            risk_score INTEGER NOT NULL,
            risk_class TEXT NOT NULL,
            factor REAL NOT NULL,
            rules_version TEXT NOT NULL,
            cause TEXT NOT NULL,            -- submission, lab, profile, correction
            evaluated_at INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX evaluations_by_day ON evaluations (patient_id, date, id);
        """

    /// Migration `v14_days_submitted_at`: when the patient last wrote the day themself (their
    /// app's or the web check-in's submission), for the ward board's "last submission" — a
    /// staff correction or a confirmed import moves `updated_at` but is no sign of life from
    /// the patient (docs/clinical-rules.md §8). NULL: only staff wrote the day. Older days take
    /// the time of their newest `day.submit` audit row written by the patient.
    static let v2 = """
        ALTER TABLE days ADD COLUMN submitted_at INTEGER;
        UPDATE days SET submitted_at = (
            SELECT MAX(a.at) FROM audit_log a JOIN patients p ON p.id = days.patient_id
            WHERE a.subject = p.study_id AND a.action = 'day.submit' AND a.actor = 'patient:' || p.study_id
              AND json_extract(a.details, '$.date') = days.date);
        """

    /// Migration `v15_evaluations_without_level`: `evaluations.level` may be NULL: a day where
    /// no rule had its data is not evaluated (docs/clinical-rules.md §3), and its evaluation is still stored with its rules version,
    /// so that it replaces an earlier level of that day. SQLite cannot change a CHECK in place,
    /// so the table is rebuilt (https://www.sqlite.org/lang_altertable.html#otheralter: create,
    /// copy, drop, rename); nothing references `evaluations`, and ids are kept.
    static let v3 = """
        CREATE TABLE evaluations_v2 (
            id INTEGER PRIMARY KEY,
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            date TEXT NOT NULL,
            pod INTEGER NOT NULL,
            level TEXT CHECK (level IN ('green', 'yellow', 'red')),   -- NULL: not evaluated
            reasons TEXT NOT NULL,          -- JSON array of {code, level, value, threshold}
            risk_score INTEGER NOT NULL,
            risk_class TEXT NOT NULL,
            factor REAL NOT NULL,
            rules_version TEXT NOT NULL,
            cause TEXT NOT NULL,            -- submission, lab, profile, correction
            evaluated_at INTEGER NOT NULL
        ) STRICT;
        INSERT INTO evaluations_v2 SELECT id, patient_id, date, pod, level, reasons, risk_score, risk_class, factor,
                                          rules_version, cause, evaluated_at FROM evaluations;
        DROP TABLE evaluations;
        ALTER TABLE evaluations_v2 RENAME TO evaluations;
        CREATE INDEX evaluations_by_day ON evaluations (patient_id, date, id);
        """
}
