import SQLite

/// Reads and writes `sync_requests`. Callers own the transaction.
enum SyncRequestRepository {
    /// The longest a request can be in flight: REDCapClient's 60 s for the whole request, with
    /// a margin. An unanswered row older than this ended by then, however it ended.
    static let longestRequestMs: Int64 = 90_000

    /// A request going out at `ms`; rows that stopped counting a minute ago go.
    static func insert(_ db: Connection, at ms: Int64) throws -> Int64 {
        try prune(db, now: ms)
        try db.execute("INSERT INTO sync_requests (started_at) VALUES (?)", [ms])
        return db.lastInsertRowID
    }

    static func answered(_ db: Connection, row: Int64, at ms: Int64) throws {
        try db.execute("UPDATE sync_requests SET answered_at = MAX(started_at, ?) WHERE id = ?", [ms, row])
    }

    /// At start: requests the previous process died waiting for, and times in the future,
    /// count as answered at `ms`; returns the answer times of the last 60 s.
    static func settle(_ db: Connection, now ms: Int64) throws -> [Int64] {
        try prune(db, now: ms)
        try db.execute("UPDATE sync_requests SET answered_at = ? WHERE answered_at IS NULL OR answered_at > ?", [ms, ms])
        return try db.query("SELECT answered_at FROM sync_requests ORDER BY answered_at").map { try $0.int64(0) }
    }

    /// Deletes the rows that no longer count at `ms`: answered over a minute ago, or unanswered
    /// (its answer time not written, or the process died) and started too long ago to count.
    private static func prune(_ db: Connection, now ms: Int64) throws {
        try db.execute("DELETE FROM sync_requests WHERE COALESCE(answered_at, started_at + ?) <= ?", [longestRequestMs, ms - 60_000])
    }
}
