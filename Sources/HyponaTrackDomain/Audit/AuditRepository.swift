import SQLite

/// Reads and writes `audit_log` (see `AuditSchema`). Callers own the transaction; chaining and
/// verification are `AuditLog`'s (with `AuditChain`).
enum AuditRepository {
    /// The newest row's `seq` and `hash`, or nil for an empty trail.
    static func head(_ db: Connection) throws -> (seq: Int64, hash: String)? {
        try db.queryOne("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1").map { (try $0.int64("seq"), try $0.string("hash")) }
    }

    static func insert(_ db: Connection, seq: Int64, at: Int64, actor: String, action: String, subject: String?,
                       details: String, prevHash: String, hash: String) throws {
        try db.execute("""
            INSERT INTO audit_log(seq, at, actor, action, subject, details, prev_hash, hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [seq, at, actor, action, subject, details, prevHash, hash])
    }

    static func last(_ db: Connection) throws -> AuditEntry? {
        try db.queryOne("SELECT * FROM audit_log ORDER BY seq DESC LIMIT 1").map(AuditEntry.init(row:))
    }

    /// Every entry in seq order, read one at a time by a single statement; `body` returns false
    /// to stop.
    static func forEachEntry(_ db: Connection, _ body: (AuditEntry) throws -> Bool) throws {
        try db.forEachRow("SELECT * FROM audit_log ORDER BY seq") { row in try body(try AuditEntry(row: row)) }
    }

    /// At most `limit` entries after `afterSeq` in chain order, only those about `subject` if
    /// given; for a site-bound `scope`, only rows about its patients (by study ID) and `reader`'s own.
    static func entries(_ db: Connection, after afterSeq: Int64, subject: String?, limit: Int,
                        scope: SiteScope = .allSites, reader: String? = nil) throws -> [AuditEntry] {
        var filter = ["seq > ?"]
        var params: [(any SQLiteBindable)?] = [afterSeq]
        if let subject { filter.append("subject = ?"); params.append(subject) }
        if !scope.isAllSites {
            filter.append("(subject IN (SELECT study_id FROM patients WHERE \(scope.condition("site_id"))) OR actor = ?)")
            params.append(reader ?? "")
        }
        params.append(limit)
        let rows = try db.query("SELECT * FROM audit_log WHERE \(filter.joined(separator: " AND ")) ORDER BY seq LIMIT ?", params)
        return try rows.map(AuditEntry.init(row:))
    }
}
