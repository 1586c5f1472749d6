import SQLite

/// Migration `v22_oidc` (docs/product.md, third round, T, settled): a member is bound to the
/// provider's subject (issuer + `sub`) at the first sign-in and matched on it afterwards, never
/// on a claim the provider lets change; a session remembers that it came through the provider
/// (`console.requireMFA` covers password sign-in only; sign-out leads to the provider's logout).
enum SingleSignOnSchema {
    static let v1 = """
        CREATE TABLE staff_oidc_subjects (
            issuer TEXT NOT NULL,
            subject TEXT NOT NULL,
            staff_id INTEGER NOT NULL REFERENCES staff(id),
            bound_at INTEGER NOT NULL,
            PRIMARY KEY (issuer, subject),
            UNIQUE (issuer, staff_id)
        ) STRICT;

        ALTER TABLE console_sessions ADD COLUMN via_provider INTEGER NOT NULL DEFAULT 0;
        """
}

/// Reads and writes `staff_oidc_subjects`. Callers own the transaction.
enum SingleSignOnRepository {
    /// The member bound to (issuer, subject), revoked ones included.
    static func member(_ db: Connection, issuer: String, subject: String) throws -> StaffMember? {
        guard let row = try db.queryOne("""
            SELECT st.* FROM staff_oidc_subjects b JOIN staff st ON st.id = b.staff_id WHERE b.issuer = ? AND b.subject = ?
            """, [issuer, subject]) else { return nil }
        return try StaffMember(row: row)
    }

    /// Whether the member is bound to some subject of this issuer.
    static func isBound(_ db: Connection, issuer: String, staffId: Int64) throws -> Bool {
        try db.queryOne("SELECT 1 AS x FROM staff_oidc_subjects WHERE issuer = ? AND staff_id = ?", [issuer, staffId]) != nil
    }

    static func bind(_ db: Connection, issuer: String, subject: String, staffId: Int64, at ms: Int64) throws {
        try db.execute("INSERT INTO staff_oidc_subjects (issuer, subject, staff_id, bound_at) VALUES (?, ?, ?, ?)",
                       [issuer, subject, staffId, ms])
    }
}
