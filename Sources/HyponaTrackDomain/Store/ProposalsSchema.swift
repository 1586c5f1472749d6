/// Imported values waiting for a nurse (docs/product.md, "Imports, proposed then confirmed").
/// A proposal never changes a patient's data by itself: confirming it writes through the same
/// paths as a staff correction, in the same transaction that marks it decided.
///
/// - `value` NULL is a deletion proposal (an `entered-in-error` Observation whose value was
///   already confirmed); `replaces` is the value in force when the proposal was made.
/// - `source_key` names the FHIR Observation (`id:…` or `identifier:system|value`) so a second
///   import of the same one proposes nothing; NULL for Apple Health day values.
/// - `lab_time` is the Observation's time (a confirmed lab sodium is stored at it);
///   `target_lab_id` the lab row an amendment or deletion would replace; `lab_id` the row a
///   confirmed lab proposal created.
enum ProposalsSchema {
    static let v1 = """
        CREATE TABLE import_proposals (
            id INTEGER PRIMARY KEY,
            patient_id INTEGER NOT NULL REFERENCES patients(id),
            source TEXT NOT NULL CHECK (source IN ('fhir', 'apple-health')),
            field TEXT NOT NULL,
            date TEXT NOT NULL,
            value REAL,
            replaces REAL,
            status TEXT NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'confirmed', 'rejected', 'superseded', 'withdrawn')),
            source_key TEXT,
            lab_time TEXT,
            target_lab_id INTEGER,
            lab_id INTEGER,
            created_at INTEGER NOT NULL,
            created_by TEXT NOT NULL,
            decided_at INTEGER,
            decided_by TEXT,
            note TEXT
        ) STRICT;

        CREATE INDEX import_proposals_status ON import_proposals (status, id);
        CREATE INDEX import_proposals_patient ON import_proposals (patient_id, field, date);
        CREATE INDEX import_proposals_source_key ON import_proposals (patient_id, source_key) WHERE source_key IS NOT NULL;
        """

    /// The version of the Observation a lab proposal was made from (`meta.versionId`,
    /// `meta.lastUpdated`, `issued`), so an older version imported later is not proposed over a
    /// newer one. NULL for proposals made before, and for Apple Health day values.
    static let v2 = """
        ALTER TABLE import_proposals ADD COLUMN source_version_id TEXT;
        ALTER TABLE import_proposals ADD COLUMN source_last_updated TEXT;
        ALTER TABLE import_proposals ADD COLUMN source_issued TEXT;
        """
}
