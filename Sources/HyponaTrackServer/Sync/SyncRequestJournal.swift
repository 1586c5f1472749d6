import SQLite

/// The REDCap requests of the last minute in `sync_requests` (migration `v11_sync_requests`),
/// for ``RequestPacer``: a row is written before its request goes out (so a kill from then on
/// still counts it) and stamped when the answer came. Times are wall-clock epoch ms, read back
/// only as ages: a request the previous process died waiting for counts as answered at the next
/// start, and one stamped in the future (the clock was stepped back) as answered now, so neither
/// counts for more than a minute.
struct SyncRequestJournal: RequestJournal {
    let database: Database
    let clock: any ServerClock
    let logger: Logger

    func recentAges() throws -> [Double] {
        let ms = epochMilliseconds(clock.now())
        let times = try database.write { db in try SyncRequestRepository.settle(db, now: ms) }
        return times.map { Double(ms - $0) / 1000 }
    }

    func started() -> Int64? {
        let ms = epochMilliseconds(clock.now())
        do {
            return try database.write { db in try SyncRequestRepository.insert(db, at: ms) }
        } catch {
            // The request still goes out: the in-memory window holds this process to the cap.
            logger.error("redcap sync: the request could not be written down; a restart within a minute will not count it",
                         ["error": "\(error)"])
            return nil
        }
    }

    func answered(_ row: Int64) {
        let ms = epochMilliseconds(clock.now())
        // Off the request's path: the row already counts from its start.
        database.submit({ db in try SyncRequestRepository.answered(db, row: row, at: ms) }) { [logger] result in
            if case .failure(let error) = result {
                logger.warning("redcap sync: the answer time of a request could not be written", ["error": "\(error)"])
            }
        }
    }
}

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
