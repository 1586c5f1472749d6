import Foundation
import SQLite

/// The single-commit ceiling: how many durable transactions per second one thread gets from
/// this disk with one row per `BEGIN IMMEDIATE … COMMIT`, through our SQLite wrapper (which
/// opens every writable connection with WAL + `synchronous=FULL`, so each COMMIT fsyncs the WAL).
/// Group commit exists to beat this figure.
enum CommitCeiling {
    /// Commits per second over about `seconds`, in a fresh database file in `directory`.
    static func measure(directory: String, seconds: Double) throws -> Double {
        let path = directory + "/ceiling.sqlite"
        let db = try Connection(path: path)
        defer { db.close() }
        guard try db.pragma("synchronous") == .integer(2),
              try db.pragma("journal_mode") == .text("wal") else {
            throw BenchError("the ceiling database is not in WAL + synchronous=FULL")
        }
        try db.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, payload TEXT NOT NULL, at INTEGER NOT NULL)")
        // A payload the size of one symptom entry, so the WAL frame is comparable.
        let payload = String(repeating: "x", count: 120)
        var commits = 0
        let start = Monotonic.now()
        let end = Monotonic.adding(seconds, to: start)
        var now = start
        while now < end {
            try db.transaction(.immediate) {
                try db.execute("INSERT INTO rows (payload, at) VALUES (?, ?)", [payload, Int64(now)])
            }
            commits += 1
            now = Monotonic.now()
        }
        let elapsed = Monotonic.seconds(from: start, to: now)
        let stored = try db.scalar("SELECT count(*) FROM rows", as: Int.self) ?? 0
        guard stored == commits else { throw BenchError("ceiling: \(commits) commits but \(stored) rows") }
        return Double(commits) / elapsed
    }
}
