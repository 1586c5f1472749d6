import SQLite

/// Reads and writes `staff_tokens` and `patient_tokens`, always by the token's hash (the only
/// form stored, see `Secrets.tokenHash`). Callers own the transaction and compare the returned
/// hash with the computed one in constant time (`Authenticator`).
enum TokenRepository {
    /// A live token's stored hash and whom it stands for.
    struct StaffOwner {
        var tokenHash: String
        var staffId: Int64
        var name: String
        var role: String
    }

    struct PatientOwner {
        var tokenHash: String
        var patientId: Int64
        var studyId: String
    }

    static func insertStaffToken(_ db: Connection, staffId: Int64, hash: String, at ms: Int64) throws {
        try db.execute("INSERT INTO staff_tokens(staff_id, token_hash, created_at) VALUES (?, ?, ?)", [staffId, hash, ms])
    }

    static func revokeStaffTokens(_ db: Connection, staffId: Int64, at ms: Int64) throws {
        TokenCache.credentialsChanged(db)
        try db.execute("UPDATE staff_tokens SET revoked_at = ? WHERE staff_id = ? AND revoked_at IS NULL", [ms, staffId])
    }

    static func insertPatientToken(_ db: Connection, patientId: Int64, hash: String, at ms: Int64) throws {
        try db.execute("INSERT INTO patient_tokens(patient_id, token_hash, created_at) VALUES (?, ?, ?)", [patientId, hash, ms])
    }

    static func revokePatientTokens(_ db: Connection, patientId: Int64, at ms: Int64) throws {
        TokenCache.credentialsChanged(db)
        try db.execute("UPDATE patient_tokens SET revoked_at = ? WHERE patient_id = ? AND revoked_at IS NULL", [ms, patientId])
    }

    /// Revokes the one patient token with this hash (a web sign-out); false if it was not live.
    static func revokePatientToken(_ db: Connection, hash: String, at ms: Int64) throws -> Bool {
        TokenCache.credentialsChanged(db)
        try db.execute("UPDATE patient_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL", [ms, hash])
        return db.changes > 0
    }

    /// The staff token with this hash if it is unrevoked, unexpired and its member unrevoked.
    static func staffOwner(_ db: Connection, hash: String, now ms: Int64) throws -> StaffOwner? {
        guard let row = try db.queryOne("""
            SELECT t.token_hash, s.id, s.name, s.role
            FROM staff_tokens AS t JOIN staff AS s ON s.id = t.staff_id
            WHERE t.token_hash = ?
              AND t.revoked_at IS NULL
              AND (t.expires_at IS NULL OR t.expires_at > ?)
              AND s.revoked_at IS NULL
            """, [hash, ms]) else { return nil }
        return StaffOwner(tokenHash: try row.string("token_hash"), staffId: try row.int64("id"), name: try row.string("name"),
                          role: try row.string("role"))
    }

    /// The patient token with this hash if it is unrevoked, unexpired and its patient not withdrawn.
    static func patientOwner(_ db: Connection, hash: String, now ms: Int64) throws -> PatientOwner? {
        guard let row = try db.queryOne("""
            SELECT t.token_hash, p.id, p.study_id
            FROM patient_tokens AS t JOIN patients AS p ON p.id = t.patient_id
            WHERE t.token_hash = ?
              AND t.revoked_at IS NULL
              AND (t.expires_at IS NULL OR t.expires_at > ?)
              AND p.withdrawn_at IS NULL
            """, [hash, ms]) else { return nil }
        return PatientOwner(tokenHash: try row.string("token_hash"), patientId: try row.int64("id"),
                            studyId: try row.string("study_id"))
    }
}
