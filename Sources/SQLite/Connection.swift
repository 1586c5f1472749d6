import CSQLiteShims
import CSQLite
import Foundation

/// One SQLite database connection.
///
/// **Threading.** A connection is opened with `SQLITE_OPEN_NOMUTEX` (SQLite's "multi-thread"
/// mode: "separate threads are allowed to use SQLite at the same time, as long as each thread
/// is using a different database connection", https://sqlite.org/c3ref/open.html) and is
/// deliberately *not* `Sendable`: use it from one thread (or one serial queue) at a time. The
/// serialized mode (`FULLMUTEX`) would only guard SQLite's internals, not this object's
/// statement cache or the pairing of a failed call with `sqlite3_errmsg`, so it would cost a
/// mutex per call without making shared use correct. To share a database across threads use
/// `GroupCommitWriter` (one writer thread) and `ReaderPool` (one connection per concurrent
/// reader); both hand a connection to exactly one thread at a time.
///
/// **Configuration at open** (writable connections): busy timeout, extended result codes,
/// defensive mode, no double-quoted string literals, `journal_mode=WAL` (verified),
/// `synchronous=FULL`, `foreign_keys=ON`.
///
/// `close()` releases the connection deterministically; `deinit` closes it too.
public final class Connection {
    /// The file path the connection was opened with.
    public let path: String
    /// The options it was opened with.
    public let options: Options

    let handle: ConnectionHandle
    private var statementCache: StatementCache
    /// Nesting depth of `transaction` calls that became savepoints, to name them uniquely.
    var savepointDepth = 0
    private var currentBusyTimeout: Duration
    /// What the application attached (`attach(_:)`), by type.
    var attachments: [ObjectIdentifier: Any] = [:]

    /// Opens (and for `.readWriteCreate`, creates) the database at `path` and applies the
    /// configuration described on the type. Throws `SQLiteError` if opening or any
    /// configuration step fails, e.g. if WAL mode cannot be enabled.
    public init(path: String, options: Options = Options()) throws {
        self.path = path
        self.options = options
        self.currentBusyTimeout = options.busyTimeout
        self.statementCache = StatementCache(capacity: options.statementCacheCapacity)

        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch options.access {
        case .readWriteCreate:
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            Self.createPrivateFileIfMissing(path)
        case .readWrite:
            flags |= SQLITE_OPEN_READWRITE
        case .readOnly:
            flags |= SQLITE_OPEN_READONLY
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteError.from(db, resultCode: rc, sql: nil)
            // "Whether or not an error occurs when it is opened, resources associated with the
            // database connection handle should be released by passing it to sqlite3_close()"
            // (https://sqlite.org/c3ref/open.html).
            sqlite3_close_v2(db)
            throw SQLiteError(extendedCode: error.extendedCode, message: "cannot open \(path): \(error.message)")
        }
        handle = ConnectionHandle(db)
        do {
            try configure(db)
        } catch {
            handle.close()
            throw error
        }
    }

    deinit {
        statementCache.removeAll()
        handle.close()
    }

    /// Finalizes cached statements and closes the connection (`sqlite3_close_v2`); an open
    /// transaction is rolled back. Later calls throw `SQLITE_MISUSE`. Idempotent.
    public func close() {
        statementCache.removeAll()
        handle.close()
    }

    /// Whether `close()` was called.
    public var isClosed: Bool { handle.isClosed }

    // MARK: State

    /// The rowid of the most recent successful INSERT on this connection
    /// (https://sqlite.org/c3ref/last_insert_rowid.html); 0 when closed.
    public var lastInsertRowID: Int64 {
        handle.isClosed ? 0 : sqlite3_last_insert_rowid(handle.pointer)
    }

    /// Rows changed by the most recent INSERT/UPDATE/DELETE (https://sqlite.org/c3ref/changes.html).
    public var changes: Int {
        handle.isClosed ? 0 : Int(sqlite3_changes64(handle.pointer))
    }

    /// Moves on whenever a transaction or a savepoint of this connection is rolled back,
    /// explicitly or by SQLite itself after an error: what a value remembered from inside a
    /// transaction (the last row written, say) is valid under is that this has not moved.
    public var rollbackCount: UInt64 { handle.rollbacks.pointee }

    /// Rows changed since the connection was opened.
    public var totalChanges: Int {
        handle.isClosed ? 0 : Int(sqlite3_total_changes64(handle.pointer))
    }

    /// Whether a transaction is open. "Autocommit mode is disabled by a BEGIN statement [and]
    /// re-enabled by a COMMIT or ROLLBACK" — and, after some errors (SQLITE_FULL, SQLITE_IOERR,
    /// SQLITE_NOMEM, SQLITE_BUSY, SQLITE_INTERRUPT), by SQLite rolling back on its own; "the
    /// only way to find out whether SQLite automatically rolled back the transaction after an
    /// error is to use this function" (https://sqlite.org/c3ref/get_autocommit.html).
    public var isInTransaction: Bool {
        !handle.isClosed && sqlite3_get_autocommit(handle.pointer) == 0
    }

    /// How long a statement waits for another connection's lock before `SQLITE_BUSY`.
    /// Setting it calls `sqlite3_busy_timeout` (https://sqlite.org/c3ref/busy_timeout.html).
    public var busyTimeout: Duration {
        get { currentBusyTimeout }
        set {
            currentBusyTimeout = newValue
            if !handle.isClosed { sqlite3_busy_timeout(handle.pointer, Self.milliseconds(newValue)) }
        }
    }

    // MARK: Pragmas

    /// Reads a pragma (`PRAGMA name`), returning the first column of the first row, or NULL.
    /// `name` must be an identifier, optionally schema-qualified (pragmas cannot be bound).
    public func pragma(_ name: String) throws -> SQLiteValue {
        try Self.validatePragma(name: name, value: nil)
        return try queryOne("PRAGMA \(name)")?.values.first ?? .null
    }

    /// Sets a pragma (`PRAGMA name=value`) and returns what SQLite reports back (e.g. the
    /// journal mode actually in force), or NULL for pragmas that report nothing. `value` must
    /// be an identifier or an integer.
    @discardableResult
    public func setPragma(_ name: String, to value: String) throws -> SQLiteValue {
        try Self.validatePragma(name: name, value: value)
        return try queryOne("PRAGMA \(name)=\(value)")?.values.first ?? .null
    }

    // MARK: Statements

    /// Prepares one statement. Throws if `sql` contains more than one statement (use
    /// `execute(_:)` for scripts) or none.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(handle: handle, sql: sql, persistent: false)
    }

    /// A prepared statement from the connection's cache, keyed by the exact SQL text, reset
    /// and with bindings cleared. If the cached statement is still being stepped (the caller
    /// is iterating it), a fresh uncached statement is returned instead, so reentrant use of
    /// the same SQL cannot disturb the running one.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            if !statement.isBusy {
                statement.clearBindings()
                return statement
            }
            return try prepare(sql)
        }
        let statement = try Statement(handle: handle, sql: sql, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    // MARK: Configuration

    private func configure(_ db: OpaquePointer) throws {
        // Wait for locks instead of failing at once: other processes (backup tool, a second
        // server instance during a restart) may hold the database briefly.
        sqlite3_busy_timeout(db, Self.milliseconds(options.busyTimeout))

        // Double-quoted strings are identifiers, never string literals: "The SQL standard
        // requires double-quotes around identifiers and single-quotes around string literals"
        // and SQLite's tolerance of `"text"` as a literal hides typos in column names
        // (https://sqlite.org/quirks.html#dblquote).
        try dbConfig(db, SQLITE_DBCONFIG_DQS_DML, false)
        try dbConfig(db, SQLITE_DBCONFIG_DQS_DDL, false)

        if options.access == .readOnly { return }

        // Defensive mode "disables language features that allow ordinary SQL to deliberately
        // corrupt the database file" (https://sqlite.org/c3ref/c_dbconfig_defensive.html).
        try dbConfig(db, SQLITE_DBCONFIG_DEFENSIVE, true)

        // "The new journal mode is returned. If the journal mode could not be changed, the
        // original journal mode is returned." (https://sqlite.org/pragma.html#pragma_journal_mode)
        // so the answer must be checked. WAL lets readers run while one writer writes
        // (https://sqlite.org/wal.html) and is persistent in the file.
        let mode = try setPragma("journal_mode", to: "WAL")
        guard case .text(let modeName) = mode, modeName.lowercased() == "wal" else {
            throw SQLiteError(extendedCode: SQLITE_ERROR,
                              message: "cannot enable WAL journal mode on \(path) (journal_mode is \(mode))")
        }

        // "With synchronous=FULL in WAL mode, an additional sync operation of the WAL file
        // happens after each transaction commit. The extra WAL sync following each transaction
        // helps ensure that transactions are durable across a power loss."
        // (https://sqlite.org/pragma.html#pragma_synchronous). It is per connection, not stored
        // in the file, so it is set on every open; NORMAL could lose acknowledged commits.
        try setPragma("synchronous", to: "FULL")
        guard try pragma("synchronous") == .integer(2) else {
            throw SQLiteError(extendedCode: SQLITE_ERROR, message: "cannot set synchronous=FULL on \(path)")
        }

        // "Foreign key constraints are disabled by default (for backwards compatibility), so
        // must be enabled separately for each database connection."
        // (https://sqlite.org/foreignkeys.html#fk_enable)
        try setPragma("foreign_keys", to: "ON")
        guard try pragma("foreign_keys") == .integer(1) else {
            throw SQLiteError(extendedCode: SQLITE_ERROR, message: "cannot enable foreign keys on \(path)")
        }
    }

    private func dbConfig(_ db: OpaquePointer, _ option: Int32, _ enabled: Bool) throws {
        var result: Int32 = -1
        let rc = ht_sqlite_db_config_bool(db, option, enabled ? 1 : 0, &result)
        guard rc == SQLITE_OK, result == (enabled ? 1 : 0) else {
            throw SQLiteError.from(db, resultCode: rc == SQLITE_OK ? SQLITE_ERROR : rc,
                                   sql: nil)
        }
    }

    /// Pre-creates the database file with mode 0600 (patient data). SQLite would create it
    /// with 0644 minus umask; it gives the -wal and -shm files the same permissions as the
    /// database file (os_unix.c, findCreateFileMode), so they inherit 0600 too.
    private static func createPrivateFileIfMissing(_ path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 { closeFileDescriptor(fd) }
        // Any failure (EEXIST, ENOENT in a missing directory, ...) is left for
        // sqlite3_open_v2 to report with its own message.
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, ms))
    }

    private static func validatePragma(name: String, value: String?) throws {
        func isIdentifier(_ part: Substring) -> Bool {
            guard let first = part.first, first.isLetter || first == "_" else { return false }
            return part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy(isIdentifier) else {
            throw SQLiteError.misuse("invalid pragma name \(name)")
        }
        if let value {
            let body = value.hasPrefix("-") ? Substring(value.dropFirst()) : Substring(value)
            guard !body.isEmpty, body.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw SQLiteError.misuse("invalid value for pragma \(name)")
            }
        }
    }
}

/// `close(2)`; a free function because inside `Connection` the name `close` is the method.
func closeFileDescriptor(_ fd: Int32) {
    _ = close(fd)
}
