import CSQLite

/// An error reported by SQLite, or by this wrapper when it is used in a way SQLite would
/// reject (then the code is `SQLITE_MISUSE`, `SQLITE_RANGE` or `SQLITE_MISMATCH`).
///
/// It carries the SQL text of the failing statement, never the bound arguments: arguments are
/// patient data and error descriptions end up in logs. (The wrapper never calls
/// `sqlite3_expanded_sql`, the only SQLite function that would splice them in.)
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (`extendedCode & 0xff`), e.g. `SQLITE_CONSTRAINT` (19).
    /// See https://sqlite.org/rescode.html.
    public let code: Int32
    /// The extended result code, e.g. `SQLITE_CONSTRAINT_UNIQUE` (2067). Equal to `code` when
    /// SQLite reported no extended detail.
    public let extendedCode: Int32
    /// SQLite's English message (`sqlite3_errmsg`), or the wrapper's own explanation.
    public let message: String
    /// The statement (or script) being run, with `?`/`:name` placeholders, never the values.
    public let sql: String?

    /// Creates an error from an extended (or primary) result code.
    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.code = extendedCode & 0xff
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    // MARK: Classification

    /// `SQLITE_BUSY`: another connection holds the lock longer than the busy timeout.
    /// Retrying the whole transaction later is the remedy.
    public var isBusy: Bool { code == SQLITE_BUSY }
    /// `SQLITE_LOCKED`: a conflict inside this same connection (e.g. dropping a table that an
    /// unfinished statement still reads).
    public var isLocked: Bool { code == SQLITE_LOCKED }
    /// Any `SQLITE_CONSTRAINT` failure (unique, not null, check, foreign key, ...).
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }
    /// A `UNIQUE` or `PRIMARY KEY` constraint failed.
    public var isUniqueConstraintViolation: Bool {
        extendedCode == ExtendedResultCode.constraintUnique || extendedCode == ExtendedResultCode.constraintPrimaryKey
    }
    /// A foreign key constraint failed (requires `PRAGMA foreign_keys=ON`, which `Connection`
    /// sets).
    public var isForeignKeyViolation: Bool { extendedCode == ExtendedResultCode.constraintForeignKey }
    /// A `NOT NULL` constraint failed.
    public var isNotNullViolation: Bool { extendedCode == ExtendedResultCode.constraintNotNull }
    /// A `CHECK` constraint failed.
    public var isCheckViolation: Bool { extendedCode == ExtendedResultCode.constraintCheck }
    /// The API was used incorrectly (by the caller or by this wrapper's preconditions).
    public var isMisuse: Bool { code == SQLITE_MISUSE }

    /// The symbolic name of the code, e.g. "SQLITE_CONSTRAINT_UNIQUE" or "SQLITE_IOERR".
    public var codeName: String {
        if let name = Self.extendedNames[extendedCode] { return name }
        return Self.primaryNames[code] ?? "SQLITE_UNKNOWN_\(code)"
    }

    /// One line for logs: code name, numeric codes, message, and the SQL (shortened).
    public var description: String {
        var text = "\(codeName) (\(code)/\(extendedCode)): \(message)"
        if let sql {
            let flat = sql.split(whereSeparator: \.isNewline).joined(separator: " ")
            text += flat.count > 300 ? " — SQL: \(flat.prefix(300))…" : " — SQL: \(flat)"
        }
        return text
    }

    // MARK: Construction inside the module

    /// Builds the error for a failed call on `db`. With extended result codes enabled
    /// (`SQLITE_OPEN_EXRESCODE`), `resultCode` is already the extended code; the message is the
    /// connection's `sqlite3_errmsg`, which "returns English-language text that describes the
    /// error" of the most recent failed API call (https://sqlite.org/c3ref/errcode.html).
    static func from(_ db: OpaquePointer?, resultCode: Int32, sql: String?) -> SQLiteError {
        var extended = resultCode
        var message = String(cString: sqlite3_errstr(resultCode))
        if let db {
            let connectionCode = sqlite3_extended_errcode(db)
            // Use the connection's message only if it describes this failure; some calls
            // (e.g. sqlite3_backup_step) report on another connection.
            if connectionCode & 0xff == resultCode & 0xff {
                if resultCode <= 0xff { extended = connectionCode }
                message = String(cString: sqlite3_errmsg(db))
            }
        }
        return SQLiteError(extendedCode: extended, message: message, sql: sql)
    }

    static func misuse(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_MISUSE, message: message, sql: sql)
    }

    static func mismatch(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_MISMATCH, message: message, sql: sql)
    }

    static func range(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_RANGE, message: message, sql: sql)
    }

    private static let primaryNames: [Int32: String] = [
        0: "SQLITE_OK", 1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM",
        4: "SQLITE_ABORT", 5: "SQLITE_BUSY", 6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM",
        8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT", 10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT",
        12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL",
        16: "SQLITE_EMPTY", 17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT",
        20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE", 22: "SQLITE_NOLFS", 23: "SQLITE_AUTH",
        24: "SQLITE_FORMAT", 25: "SQLITE_RANGE", 26: "SQLITE_NOTADB", 27: "SQLITE_NOTICE",
        28: "SQLITE_WARNING", 100: "SQLITE_ROW", 101: "SQLITE_DONE",
    ]

    private static let extendedNames: [Int32: String] = [
        ExtendedResultCode.constraintCheck: "SQLITE_CONSTRAINT_CHECK",
        ExtendedResultCode.constraintForeignKey: "SQLITE_CONSTRAINT_FOREIGNKEY",
        ExtendedResultCode.constraintNotNull: "SQLITE_CONSTRAINT_NOTNULL",
        ExtendedResultCode.constraintPrimaryKey: "SQLITE_CONSTRAINT_PRIMARYKEY",
        ExtendedResultCode.constraintTrigger: "SQLITE_CONSTRAINT_TRIGGER",
        ExtendedResultCode.constraintUnique: "SQLITE_CONSTRAINT_UNIQUE",
        ExtendedResultCode.constraintDataType: "SQLITE_CONSTRAINT_DATATYPE",
        ExtendedResultCode.busyRecovery: "SQLITE_BUSY_RECOVERY",
        ExtendedResultCode.busySnapshot: "SQLITE_BUSY_SNAPSHOT",
        ExtendedResultCode.busyTimeout: "SQLITE_BUSY_TIMEOUT",
        ExtendedResultCode.abortRollback: "SQLITE_ABORT_ROLLBACK",
    ]
}

extension SQLiteError {
    /// Primary result codes for callers that do not import the C module.
    /// See https://sqlite.org/rescode.html.
    public enum Code {
        public static let error: Int32 = SQLITE_ERROR
        public static let busy: Int32 = SQLITE_BUSY
        public static let locked: Int32 = SQLITE_LOCKED
        public static let readOnly: Int32 = SQLITE_READONLY
        public static let ioError: Int32 = SQLITE_IOERR
        public static let corrupt: Int32 = SQLITE_CORRUPT
        public static let full: Int32 = SQLITE_FULL
        public static let cantOpen: Int32 = SQLITE_CANTOPEN
        public static let constraint: Int32 = SQLITE_CONSTRAINT
        public static let mismatch: Int32 = SQLITE_MISMATCH
        public static let misuse: Int32 = SQLITE_MISUSE
        public static let range: Int32 = SQLITE_RANGE
        public static let notADatabase: Int32 = SQLITE_NOTADB
    }
}
