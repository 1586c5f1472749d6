/// Migration `v20_outcomes` (Schema): outcomes, each evaluation's result under shadow rules,
/// the shadow set by the CLI.
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

        -- What an evaluation gave under the shadow rules, one row per evaluation made while a
        -- shadow is set, in a table of its own without an index: each row is one append for the
        -- single writer (columns in evaluations cost every submission ~30k instructions even with
        -- no shadow set, callgrind); the comparison sorts as it reads.
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
}
