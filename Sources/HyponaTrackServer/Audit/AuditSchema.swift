/// The tamper-evident audit trail.
///
/// Each row is chained to the one before it (`AuditChain`): `hash` = hex SHA-256 of the previous
/// row's `hash`, a newline, and the row's canonical text. `seq` starts at 1 and has no gaps.
/// The database itself refuses UPDATE and DELETE through triggers ("RAISE(ABORT, ...)" aborts the
/// statement and backs out its changes, https://sqlite.org/lang_createtrigger.html#raise);
/// whoever can drop the triggers can also edit the file, which `AuditLog.verify` then detects.
public enum AuditSchema {
    /// The first version; registered as migration `v1_audit`.
    public static let v1 = """
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

        CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN
            SELECT RAISE(ABORT, 'audit_log is append-only');
        END;

        CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN
            SELECT RAISE(ABORT, 'audit_log is append-only');
        END;
        """
}
