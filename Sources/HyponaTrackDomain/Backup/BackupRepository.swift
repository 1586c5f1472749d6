import SQLite

/// The SQL of a backup: the online copy and the check of the copied file.
enum BackupRepository {
    /// A consistent copy of the database `db` reads, written to `path` with SQLite's backup API
    /// (WAL: writers carry on meanwhile).
    static func copy(_ db: Connection, to path: String) throws {
        try db.backup(to: path)
    }

    /// SQLite's `integrity_check` of the database `db` is open on: "ok", or its first complaint.
    static func integrityCheck(_ db: Connection) throws -> String {
        try db.scalar("PRAGMA integrity_check(1)", as: String.self) ?? "?"
    }

    /// The database's size in bytes as SQLite counts it (pages × page size): what a copy needs.
    static func size(_ db: Connection) throws -> Int64 {
        let pages = try db.scalar("PRAGMA page_count", as: Int64.self) ?? 0
        let pageSize = try db.scalar("PRAGMA page_size", as: Int64.self) ?? 4096
        return pages * pageSize
    }
}
