import SQLite

/// After the daemon stopped: does the database hold every acknowledged submission?
enum Durability {
    /// Rows the daemon's database holds, read through a read-only connection.
    struct Stored {
        let symptomEntries: Int
        let evaluations: Int
        let auditRows: Int
    }

    static func count(databasePath: String) throws -> Stored {
        let db = try Connection(path: databasePath, options: .readOnly)
        defer { db.close() }
        func count(_ sql: String) throws -> Int { try db.scalar(sql, as: Int.self) ?? 0 }
        return Stored(symptomEntries: try count("SELECT count(*) FROM symptom_entries"),
                      evaluations: try count("SELECT count(*) FROM evaluations"),
                      auditRows: try count("SELECT count(*) FROM audit_log"))
    }

    /// Whether `stored` symptom entries are consistent with `acknowledged` 200s: every
    /// acknowledged one must be there; more are allowed only for requests that got no answer
    /// at all (the daemon may have committed them before the connection failed).
    static func consistent(stored: Int, acknowledged: Int, unanswered: Int) -> Bool {
        stored >= acknowledged && stored - acknowledged <= unanswered
    }
}
