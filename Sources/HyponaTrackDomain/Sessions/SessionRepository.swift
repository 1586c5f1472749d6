import SQLite

/// A stored console session with its member.
struct StoredSession: Sendable {
    var id: Int64
    var staff: StaffMember
    var createdAt: Int64
    var lastSeenAt: Int64
    /// Signed in through the OpenID provider (not the password).
    var viaProvider: Bool
}

/// Reads and writes `console_sessions` and `staff_passwords` (`SessionSchema`). Callers own the
/// transaction.
enum SessionRepository {
    static func passwordHash(_ db: Connection, staffId: Int64) throws -> String? {
        try db.queryOne("SELECT hash FROM staff_passwords WHERE staff_id = ?", [staffId])?.string("hash")
    }

    static func setPassword(_ db: Connection, staffId: Int64, hash: String, by actor: String, at ms: Int64) throws {
        try db.execute("""
            INSERT INTO staff_passwords (staff_id, hash, set_at, set_by) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (staff_id) DO UPDATE SET hash = ?2, set_at = ?3, set_by = ?4
            """, [staffId, hash, ms, actor])
    }

    static func create(_ db: Connection, tokenHash: String, staffId: Int64, ip: String, at ms: Int64, viaProvider: Bool = false) throws -> Int64 {
        try db.execute("INSERT INTO console_sessions (token_hash, staff_id, created_at, last_seen_at, ip, via_provider) VALUES (?, ?, ?, ?, ?, ?)",
                       [tokenHash, staffId, ms, ms, ip, viaProvider ? 1 : 0])
        return db.lastInsertRowID
    }

    /// The session and its member (revoked members included: the caller decides).
    static func find(_ db: Connection, tokenHash: String) throws -> StoredSession? {
        guard let row = try db.queryOne("""
            SELECT s.id AS session_id, s.created_at AS session_created_at, s.last_seen_at, s.via_provider, st.*
            FROM console_sessions s JOIN staff st ON st.id = s.staff_id WHERE s.token_hash = ?
            """, [tokenHash]) else { return nil }
        return StoredSession(id: try row.int64("session_id"), staff: try StaffMember(row: row),
                             createdAt: try row.int64("session_created_at"), lastSeenAt: try row.int64("last_seen_at"),
                             viaProvider: try row.int64("via_provider") != 0)
    }

    static func touch(_ db: Connection, id: Int64, at ms: Int64) throws {
        try db.execute("UPDATE console_sessions SET last_seen_at = ? WHERE id = ?", [ms, id])
    }

    @discardableResult
    static func end(_ db: Connection, id: Int64) throws -> Int {
        try db.execute("DELETE FROM console_sessions WHERE id = ?", [id])
    }

    /// Ends every session of a member; returns how many there were.
    @discardableResult
    static func endAll(_ db: Connection, staffId: Int64) throws -> Int {
        try db.execute("DELETE FROM console_sessions WHERE staff_id = ?", [staffId])
    }

    /// Removes sessions past their idle or absolute limit.
    @discardableResult
    static func prune(_ db: Connection, idleBefore: Int64, createdBefore: Int64) throws -> Int {
        try db.execute("DELETE FROM console_sessions WHERE last_seen_at < ? OR created_at < ?", [idleBefore, createdBefore])
    }
}
