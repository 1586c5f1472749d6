import SQLite

/// The SQL of a backup: the online copy and the check of the copied file.
enum BackupRepository {
    /// A consistent copy of the database `db` reads, written to `path` with SQLite's backup API
    /// (WAL: writers carry on meanwhile).
    static func copy(_ db: Connection, to path: String) throws {
        try db.backup(to: path)
    }

    /// SQLite's `quick_check` of the database `db` is open on: "ok", or what is wrong.
    static func quickCheck(_ db: Connection) throws -> String {
        try db.scalar("PRAGMA quick_check", as: String.self) ?? "?"
    }
}
