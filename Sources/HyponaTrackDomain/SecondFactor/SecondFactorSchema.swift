import SQLite

/// Migration `v21_mfa`: the members' second factors (docs/product.md, third round, T).
///
/// The TOTP secret is stored only sealed (AES-256-GCM under the second-factor key, which lives
/// outside the data directory), so neither the database file nor a backup reveals it. A factor
/// is pending until confirmed with a first code (`active_at`); `last_step` is the TOTP time
/// step last accepted, and no code of that step or an earlier one is accepted again. Recovery
/// codes are stored as HMAC-SHA256 under the same key, each usable once.
enum SecondFactorSchema {
    static let v1 = """
        CREATE TABLE staff_mfa (
            staff_id INTEGER PRIMARY KEY REFERENCES staff(id),
            sealed_secret BLOB NOT NULL,          -- nonce ‖ AES-256-GCM ciphertext ‖ tag
            key_fingerprint TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            created_by TEXT NOT NULL,
            active_at INTEGER,
            last_step INTEGER
        ) STRICT;

        CREATE TABLE staff_recovery_codes (
            staff_id INTEGER NOT NULL REFERENCES staff(id),
            code_hash TEXT NOT NULL,              -- HMAC-SHA256 hex under the second-factor key
            used_at INTEGER,
            PRIMARY KEY (staff_id, code_hash)
        ) STRICT;
        """
}

/// A member's stored factor.
struct StoredSecondFactor: Sendable {
    var sealedSecret: [UInt8]
    var keyFingerprint: String
    var activeAt: Int64?
    var lastStep: Int64?
}

/// Reads and writes `staff_mfa` and `staff_recovery_codes`. Callers own the transaction.
enum SecondFactorRepository {
    static func find(_ db: Connection, staffId: Int64) throws -> StoredSecondFactor? {
        guard let row = try db.queryOne("SELECT * FROM staff_mfa WHERE staff_id = ?", [staffId]) else { return nil }
        return StoredSecondFactor(sealedSecret: try row.blob("sealed_secret"), keyFingerprint: try row.string("key_fingerprint"),
                                  activeAt: try row.optionalInt64("active_at"), lastStep: try row.optionalInt64("last_step"))
    }

    static func isActive(_ db: Connection, staffId: Int64) throws -> Bool {
        try db.queryOne("SELECT 1 AS x FROM staff_mfa WHERE staff_id = ? AND active_at IS NOT NULL", [staffId]) != nil
    }

    /// A new pending factor with its recovery codes, replacing any pending one.
    static func replacePending(_ db: Connection, staffId: Int64, sealed: [UInt8], fingerprint: String, recoveryHashes: [String],
                               by actor: String, at ms: Int64) throws {
        try remove(db, staffId: staffId)
        try db.execute("""
            INSERT INTO staff_mfa (staff_id, sealed_secret, key_fingerprint, created_at, created_by) VALUES (?, ?, ?, ?, ?)
            """, [staffId, sealed, fingerprint, ms, actor])
        for hash in recoveryHashes {
            try db.execute("INSERT INTO staff_recovery_codes (staff_id, code_hash) VALUES (?, ?)", [staffId, hash])
        }
    }

    /// Records `step` as used (and activates a pending factor); false when a step at or after
    /// it was used already (a replay, or a parallel request that won).
    static func acceptStep(_ db: Connection, staffId: Int64, step: Int64, at ms: Int64) throws -> Bool {
        try db.execute("""
            UPDATE staff_mfa SET last_step = ?1, active_at = COALESCE(active_at, ?2)
            WHERE staff_id = ?3 AND (last_step IS NULL OR last_step < ?1)
            """, [step, ms, staffId]) == 1
    }

    /// Marks an unused recovery code used; false when there is none with this hash.
    static func useRecoveryCode(_ db: Connection, staffId: Int64, hash: String, at ms: Int64) throws -> Bool {
        try db.execute("UPDATE staff_recovery_codes SET used_at = ? WHERE staff_id = ? AND code_hash = ? AND used_at IS NULL",
                       [ms, staffId, hash]) == 1
    }

    static func unusedRecoveryCodes(_ db: Connection, staffId: Int64) throws -> Int {
        try db.queryOne("SELECT count(*) AS n FROM staff_recovery_codes WHERE staff_id = ? AND used_at IS NULL", [staffId])?.int("n") ?? 0
    }

    @discardableResult
    static func remove(_ db: Connection, staffId: Int64) throws -> Bool {
        try db.execute("DELETE FROM staff_recovery_codes WHERE staff_id = ?", [staffId])
        return try db.execute("DELETE FROM staff_mfa WHERE staff_id = ?", [staffId]) > 0
    }
}
