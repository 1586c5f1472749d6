import Foundation

/// A small pool of read-only connections for concurrent reads beside a `GroupCommitWriter`.
///
/// In WAL mode "readers do not block writers and a writer does not block readers"
/// (https://sqlite.org/wal.html), so each concurrent reader needs only its own connection.
/// Connections are opened lazily up to `maximumReaders`; a caller beyond that waits until one
/// is returned. Each connection is lent to exactly one thread at a time.
///
/// `read` runs its body in a deferred (read) transaction, so all its queries see one
/// consistent snapshot, and ends it before the connection goes back to the pool: a snapshot
/// kept open would stop checkpoints from resetting the WAL, which then grows without bound.
public final class ReaderPool: Sendable {
    private let storage: ReaderPoolStorage

    /// Creates a pool over an existing database (normally already migrated and in WAL mode by
    /// the writer). Opens one connection now so a wrong path fails here, not at the first read.
    public init(path: String, maximumReaders: Int = 4, busyTimeout: Duration = .seconds(5)) throws {
        precondition(maximumReaders >= 1, "maximumReaders must be at least 1")
        let options = Connection.Options(access: .readOnly, busyTimeout: busyTimeout)
        storage = ReaderPoolStorage(path: path, options: options, maximumReaders: maximumReaders)
        try storage.prime()
    }

    deinit {
        storage.close()
    }

    /// Runs `body` with a read-only connection inside one read transaction and returns its
    /// result. Blocks while all connections are lent out. Do not keep the connection (or a
    /// `Statement` of it) beyond `body`.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        let db = try storage.checkOut()
        defer { storage.checkIn(db) }
        return try db.transaction(.deferred) { try body(db) }
    }

    /// Closes idle connections now and lent ones when they come back; later `read` calls
    /// throw `SQLITE_MISUSE`.
    public func close() {
        storage.close()
    }
}
