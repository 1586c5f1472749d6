import SQLite

/// Reads and writes `activation_codes` and `activation_attempts`, and reads the patient columns
/// activation needs. Callers own the transaction; the rules (order of checks, lockout, constant-
/// time comparison) are `Activation`'s and `ActivationAttempts`'.
enum ActivationRepository {
    /// A patient as activation sees them.
    struct Patient {
        var id: Int64
        var studyId: String
        var studyIdKey: String
        var isWithdrawn: Bool
    }

    /// An unused, unrevoked code.
    struct StoredCode {
        var id: Int64
        var codeHash: String
        var expiresAt: Int64
    }

    /// A study ID key's failure counter.
    struct Attempts: Equatable {
        var failures: Int
        var lockedUntil: Int64?
    }

    // MARK: patients

    static func patient(_ db: Connection, id: Int64) throws -> Patient? {
        try db.queryOne("SELECT id, study_id, study_id_key, withdrawn_at FROM patients WHERE id = ?", [id]).map(patient)
    }

    static func patient(_ db: Connection, studyIdKey: String) throws -> Patient? {
        try db.queryOne("SELECT id, study_id, study_id_key, withdrawn_at FROM patients WHERE study_id_key = ?", [studyIdKey])
            .map(patient)
    }

    /// Sets `patients.activated_at` unless it is set already.
    static func markActivated(_ db: Connection, patientId: Int64, at ms: Int64) throws {
        try db.execute("UPDATE patients SET activated_at = ? WHERE id = ? AND activated_at IS NULL", [ms, patientId])
    }

    private static func patient(_ row: Row) throws -> Patient {
        Patient(id: try row.int64("id"), studyId: try row.string("study_id"), studyIdKey: try row.string("study_id_key"),
                isWithdrawn: try row.optionalInt64("withdrawn_at") != nil)
    }

    // MARK: codes

    static func insertCode(_ db: Connection, patientId: Int64, hash: String, at ms: Int64, expiresAt: Int64) throws {
        try db.execute("""
            INSERT INTO activation_codes(patient_id, code_hash, created_at, expires_at) VALUES (?, ?, ?, ?)
            """, [patientId, hash, ms, expiresAt])
    }

    static func revokeUnusedCodes(_ db: Connection, patientId: Int64, at ms: Int64) throws {
        try db.execute("""
            UPDATE activation_codes SET revoked_at = ?
            WHERE patient_id = ? AND used_at IS NULL AND revoked_at IS NULL
            """, [ms, patientId])
    }

    /// The newest unused, unrevoked code of the patient with this hash, or nil.
    static func usableCode(_ db: Connection, patientId: Int64, hash: String) throws -> StoredCode? {
        try db.queryOne("""
            SELECT id, code_hash, expires_at FROM activation_codes
            WHERE patient_id = ? AND code_hash = ? AND used_at IS NULL AND revoked_at IS NULL
            ORDER BY id DESC
            """, [patientId, hash]).map { row in
            StoredCode(id: try row.int64("id"), codeHash: try row.string("code_hash"), expiresAt: try row.int64("expires_at"))
        }
    }

    static func markUsed(_ db: Connection, codeId: Int64, at ms: Int64) throws {
        try db.execute("UPDATE activation_codes SET used_at = ? WHERE id = ?", [ms, codeId])
    }

    // MARK: attempts

    static func attempts(_ db: Connection, key: String) throws -> Attempts? {
        try db.queryOne("SELECT failures, locked_until FROM activation_attempts WHERE study_id_key = ?", [key]).map { row in
            Attempts(failures: try row.int("failures"), lockedUntil: try row.optionalInt64("locked_until"))
        }
    }

    static func saveAttempts(_ db: Connection, key: String, failures: Int, lastFailureAt ms: Int64, lockedUntil: Int64?) throws {
        try db.execute("""
            INSERT INTO activation_attempts(study_id_key, failures, last_failure_at, locked_until)
            VALUES (?, ?, ?, ?)
            ON CONFLICT(study_id_key) DO UPDATE SET
                failures = excluded.failures,
                last_failure_at = excluded.last_failure_at,
                locked_until = excluded.locked_until
            """, [key, failures, ms, lockedUntil])
    }

    /// Zero failures and no lock, in place (the row stays; nothing when there is none).
    static func clearAttempts(_ db: Connection, key: String) throws {
        try db.execute("UPDATE activation_attempts SET failures = 0, locked_until = NULL WHERE study_id_key = ?", [key])
    }

    /// Deletes counters with no lock in force at `ms` and no failure since `before`; returns how many.
    static func pruneAttempts(_ db: Connection, now ms: Int64, lastFailureBefore before: Int64) throws -> Int {
        try db.execute("""
            DELETE FROM activation_attempts
            WHERE (locked_until IS NULL OR locked_until <= ?) AND last_failure_at < ?
            """, [ms, before])
    }
}
