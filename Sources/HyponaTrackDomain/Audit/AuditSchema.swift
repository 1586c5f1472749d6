/// The tamper-evident audit trail.
///
/// Each row is chained to the one before it (`AuditChain`): `hash` = hex HMAC-SHA256, under the
/// audit key, of the previous row's `hash`, a newline, and the row's canonical text. `seq` starts
/// at 1 and has no gaps. The database itself refuses UPDATE and DELETE through triggers
/// ("RAISE(ABORT, ...)" aborts the statement and backs out its changes,
/// https://sqlite.org/lang_createtrigger.html#raise); whoever can drop the triggers can also edit
/// the file, which `AuditLog.verify` then detects, because re-hashing edited rows needs the key,
/// which lives outside the data directory.
public enum AuditSchema {
    /// The first version; registered as migration `v1_audit`. Its text is what shipped, byte for
    /// byte (the table, a blank line, the triggers).
    public static let v1 = table + "\n\n" + appendOnlyTriggers

    static let table = """
        CREATE TABLE audit_log (
            seq INTEGER PRIMARY KEY,
            at INTEGER NOT NULL,                -- ms since the epoch
            actor TEXT NOT NULL,                -- 'staff:<name>', 'patient:<studyId>', 'system'
            action TEXT NOT NULL,               -- e.g. 'patient.enroll', 'activation.failure'
            subject TEXT,                       -- usually the study ID or staff name
            details TEXT NOT NULL,              -- JSON text, hashed exactly as stored
            prev_hash TEXT NOT NULL,
            hash TEXT NOT NULL
        ) STRICT;
        CREATE INDEX audit_log_subject ON audit_log(subject, seq);
        """

    /// Dropped and created again (in one transaction) only by the re-keying of `v5_audit_hmac`.
    static let appendOnlyTriggers = """
        CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN
            SELECT RAISE(ABORT, 'audit_log is append-only');
        END;

        CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN
            SELECT RAISE(ABORT, 'audit_log is append-only');
        END;
        """

    /// Part of migration `v5_audit_hmac`: the fingerprint of the key the chain is keyed with, so
    /// a start with another key is refused (`AuditKeyMigration.checkKey`).
    static let v2 = """
        CREATE TABLE audit_key (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            fingerprint TEXT NOT NULL,          -- AuditKey.fingerprint, never the key
            keyed_at INTEGER NOT NULL,          -- ms since the epoch
            rows_rekeyed INTEGER NOT NULL       -- rows of an older unkeyed chain re-hashed then
        ) STRICT;
        """
}
