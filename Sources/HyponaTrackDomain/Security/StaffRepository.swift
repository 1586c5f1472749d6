import SQLite

/// Reads and writes `staff` (see `SecuritySchema`). Callers own the transaction; the rules
/// (valid names, the last active admin) are `StaffDirectory`'s.
enum StaffRepository {
    /// Inserts a member and returns their id. A name taken in any letter case fails with the
    /// UNIQUE NOCASE constraint's `SQLiteError`.
    static func insert(_ db: Connection, name: String, role: Role, by actor: String, at ms: Int64) throws -> Int64 {
        try db.execute("INSERT INTO staff(name, role, created_at, created_by) VALUES (?, ?, ?, ?)",
                       [name, role.rawValue, ms, actor])
        return db.lastInsertRowID
    }

    /// Every member, revoked ones included, ordered by name.
    static func all(_ db: Connection) throws -> [StaffMember] {
        try db.query("SELECT * FROM staff ORDER BY name COLLATE NOCASE, id").map(StaffMember.init(row:))
    }

    /// The member with this name (case-insensitive), or nil.
    static func find(_ db: Connection, name: String) throws -> StaffMember? {
        try db.queryOne("SELECT * FROM staff WHERE name = ?", [name]).map(StaffMember.init(row:))
    }

    static func count(_ db: Connection) throws -> Int {
        try db.scalar("SELECT count(*) FROM staff", as: Int.self) ?? 0
    }

    static func activeAdminCount(_ db: Connection) throws -> Int {
        try db.scalar("SELECT count(*) FROM staff WHERE role = 'admin' AND revoked_at IS NULL", as: Int.self) ?? 0
    }

    static func revoke(_ db: Connection, id: Int64, by actor: String, at ms: Int64) throws {
        TokenCache.credentialsChanged(db)
        try db.execute("UPDATE staff SET revoked_at = ?, revoked_by = ? WHERE id = ?", [ms, actor, id])
    }
}
