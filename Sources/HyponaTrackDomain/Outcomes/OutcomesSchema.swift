/// Migrations `v20_outcomes` (as shipped: outcomes, each evaluation's result under shadow rules
/// in its own row, the shadow set by the CLI) and `v21_shadow_evaluations` (Schema).
enum OutcomesSchema {
    static let v1 = """
        -- One row per outcome. source 'lab': recorded from lab_id's sodium, withdrawn with it.
        -- instance: REDCap outcome_log's, 1 + the patient's earlier outcomes.
        CREATE TABLE outcomes (
            id INTEGER PRIMARY KEY,
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            kind TEXT NOT NULL CHECK (kind IN ('hyponatremia', 'ed_visit', 'readmission', 'other')),
            date TEXT NOT NULL,
            pod INTEGER NOT NULL,
            sodium REAL,
            note TEXT,
            source TEXT NOT NULL CHECK (source IN ('staff', 'lab')),
            lab_id INTEGER REFERENCES lab_values(id),
            status TEXT NOT NULL DEFAULT 'recorded' CHECK (status IN ('recorded', 'withdrawn')),
            recorded_at INTEGER NOT NULL,
            recorded_by TEXT NOT NULL,
            withdrawn_at INTEGER,
            instance INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX outcomes_by_patient ON outcomes (patient_id, date);
        CREATE UNIQUE INDEX outcomes_by_lab ON outcomes (lab_id) WHERE lab_id IS NOT NULL;

        -- What an evaluation gave under the shadow rules, in its own row (no other table or
        -- index to write: the single writer's cost stays that of one row); NULL without a shadow.
        ALTER TABLE evaluations ADD COLUMN shadow_level TEXT CHECK (shadow_level IN ('green', 'yellow', 'red'));
        ALTER TABLE evaluations ADD COLUMN shadow_reasons TEXT;
        ALTER TABLE evaluations ADD COLUMN shadow_rules_version TEXT;

        -- The shadow set by `hyponatrack rules shadow` (wins over the configuration's
        -- rules.shadow): the four files' text, or off. since: when it was set (ms).
        CREATE TABLE rules_shadow (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            state TEXT NOT NULL CHECK (state IN ('on', 'off')),
            risk_model TEXT, thresholds TEXT, reminders TEXT, instructions TEXT,
            since INTEGER NOT NULL,
            set_by TEXT NOT NULL
        ) STRICT;
        """

    /// Migration `v21_shadow_evaluations`: shadow results move out of the evaluation's row into a
    /// table of their own, without an index (each row is one append for the single writer; the
    /// comparison sorts as it reads). The three columns `v20_outcomes` added to `evaluations`
    /// cost every submission's writer about 30k instructions even with no shadow set (callgrind,
    /// scripts/profile-ingest), so they are dropped; the results they hold are kept (the live
    /// evaluation's risk class stands for the shadow's, which they did not store).
    static let v2 = """
        CREATE TABLE shadow_evaluations (
            id INTEGER PRIMARY KEY,
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            date TEXT NOT NULL,
            pod INTEGER NOT NULL,
            level TEXT CHECK (level IN ('green', 'yellow', 'red')),
            reasons TEXT NOT NULL,
            risk_class TEXT NOT NULL,
            rules_version TEXT NOT NULL,
            evaluated_at INTEGER NOT NULL
        ) STRICT;
        INSERT INTO shadow_evaluations (patient_id, date, pod, level, reasons, risk_class, rules_version, evaluated_at)
            SELECT patient_id, date, pod, shadow_level, COALESCE(shadow_reasons, '[]'), risk_class, shadow_rules_version, evaluated_at
            FROM evaluations WHERE shadow_rules_version IS NOT NULL ORDER BY id;
        ALTER TABLE evaluations DROP COLUMN shadow_level;
        ALTER TABLE evaluations DROP COLUMN shadow_reasons;
        ALTER TABLE evaluations DROP COLUMN shadow_rules_version;
        """
}
