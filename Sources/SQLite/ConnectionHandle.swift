import CSQLite

/// Owns the `sqlite3*` of one `Connection` and is shared with that connection's statements,
/// so that a `Statement` can tell that its connection was closed instead of touching a freed
/// pointer.
///
/// Closing uses `sqlite3_close_v2`: "If sqlite3_close_v2() is called with unfinalized prepared
/// statements ... it returns SQLITE_OK regardless, but instead of deallocating the database
/// connection immediately, it marks the database connection as an unusable 'zombie' and makes
/// arrangements to automatically deallocate the database connection after all prepared
/// statements are finalized" (https://sqlite.org/c3ref/close.html). That is what makes it safe
/// for a `Statement` to outlive its `Connection` and finalize later in its own `deinit`.
final class ConnectionHandle {
    let pointer: OpaquePointer
    private(set) var isClosed = false
    /// Rollbacks seen on this connection: whole transactions (SQLite's rollback hook, which
    /// also sees the automatic rollbacks after SQLITE_FULL, SQLITE_IOERR and the like) and
    /// savepoints (counted by `Connection.rollbackToSavepointIfOpen`; the hook does not see
    /// `ROLLBACK TO`).
    let rollbacks: UnsafeMutablePointer<UInt64>

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
        rollbacks = .allocate(capacity: 1)
        rollbacks.initialize(to: 0)
        sqlite3_rollback_hook(pointer, { counter in counter?.assumingMemoryBound(to: UInt64.self).pointee &+= 1 }, rollbacks)
    }

    /// The live pointer, or a misuse error after `close()`.
    func checked(sql: String? = nil) throws -> OpaquePointer {
        if isClosed { throw SQLiteError.misuse("the database connection is closed", sql: sql) }
        return pointer
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        sqlite3_rollback_hook(pointer, nil, nil)
        // "If an sqlite3 object is destroyed while a transaction is open, the transaction is
        // automatically rolled back." (https://sqlite.org/c3ref/close.html)
        sqlite3_close_v2(pointer)
    }

    deinit {
        close()
        rollbacks.deallocate()
    }
}
