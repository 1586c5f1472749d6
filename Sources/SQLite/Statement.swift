import CSQLiteShims
import CSQLite

/// One prepared SQL statement (`sqlite3_stmt`), owned by this object and finalized by
/// `finalize()` or, at the latest, in `deinit`.
///
/// Like its `Connection`, a statement is not `Sendable`: use it on the thread that uses the
/// connection. Parameter indices are 1-based, as in SQLite; column indices are 0-based.
public final class Statement {
    /// The SQL text as prepared, with placeholders (never the bound values).
    public let sql: String
    private let handle: ConnectionHandle
    private var pointer: OpaquePointer?
    /// The last result layout; reused until SQLite re-prepares the statement (building one
    /// hashes every name twice, which showed up at 13 % of the writer's time in the ingest
    /// benchmark, and reading the names back to compare cost a string per column per query).
    private var cachedLayout: RowLayout?
    /// `SQLITE_STMTSTATUS_REPREPARE` when `cachedLayout` was built: the columns can only have
    /// changed if SQLite has re-prepared the statement since (a schema change).
    private var layoutReprepares: Int32 = -1

    /// The outcome of one `step()`.
    public enum StepResult: Sendable {
        /// A result row is available (`SQLITE_ROW`).
        case row
        /// The statement ran to completion (`SQLITE_DONE`).
        case done
    }

    init(handle: ConnectionHandle, sql: String, persistent: Bool) throws {
        let db = try handle.checked(sql: sql)
        self.handle = handle
        self.sql = sql
        var statement: OpaquePointer?
        var remainder = ""
        // SQLITE_PREPARE_PERSISTENT: "a hint to the query planner that the prepared statement
        // will be retained for a long time and probably reused many times"
        // (https://sqlite.org/c3ref/c_prepare_normalize.html); used for cached statements.
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let rc = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(db, text, -1, flags, &statement, &tail)
            if rc == SQLITE_OK, let tail { remainder = String(cString: tail) }
            return rc
        }
        guard rc == SQLITE_OK else {
            throw SQLiteError.from(db, resultCode: rc, sql: sql)
        }
        guard let statement else {
            throw SQLiteError.misuse("no SQL statement in the text (only whitespace or comments)", sql: sql)
        }
        pointer = statement
        // "sqlite3_prepare ... only compile the first statement" (https://sqlite.org/c3ref/prepare.html):
        // a second statement would otherwise be silently ignored.
        if try Self.containsStatement(remainder, db: db) {
            throw SQLiteError.misuse("more than one SQL statement; use Connection.execute(_:) for scripts", sql: sql)
        }
    }

    deinit {
        if let pointer { sqlite3_finalize(pointer) }
    }

    /// Releases the prepared statement now. Later use throws `SQLITE_MISUSE`. Idempotent.
    public func finalize() {
        if let pointer { sqlite3_finalize(pointer) }
        pointer = nil
    }

    // MARK: Metadata

    /// The number of parameters (`?`, `?NNN`, `:name`, `@name`, `$name`); the largest index.
    public var parameterCount: Int { pointer.map { Int(sqlite3_bind_parameter_count($0)) } ?? 0 }

    /// The number of result columns (0 for statements that return no rows).
    public var columnCount: Int { pointer.map { Int(sqlite3_column_count($0)) } ?? 0 }

    /// Result column names, as SQLite reports them (`AS` aliases win).
    public var columnNames: [String] {
        guard let pointer else { return [] }
        return (0..<sqlite3_column_count(pointer)).map { String(cString: sqlite3_column_name(pointer, $0)) }
    }

    /// Whether the statement makes no direct change to the database file
    /// (https://sqlite.org/c3ref/stmt_readonly.html).
    public var isReadOnly: Bool { pointer.map { sqlite3_stmt_readonly($0) != 0 } ?? true }

    /// Whether the statement has been stepped but neither finished nor reset
    /// (https://sqlite.org/c3ref/stmt_busy.html). Such a statement keeps its read snapshot.
    public var isBusy: Bool { pointer.map { sqlite3_stmt_busy($0) != 0 } ?? false }

    // MARK: Binding

    /// Binds one value at a 1-based parameter index; `nil` binds NULL.
    public func bind(_ value: (any SQLiteBindable)?, at index: Int) throws {
        let statement = try live()
        guard let position = Int32(exactly: index) else {
            throw SQLiteError.range("parameter index \(index) out of range", sql: sql)
        }
        let rc = Self.bind(value?.sqliteValue ?? .null, at: position, to: statement)
        guard rc == SQLITE_OK else { throw SQLiteError.from(handle.pointer, resultCode: rc, sql: sql) }
    }

    /// Binds one value to a named parameter. `name` may carry its prefix (`:id`, `@id`, `$id`)
    /// or not (`id`, then `:id`, `@id` and `$id` are tried in that order).
    public func bind(_ value: (any SQLiteBindable)?, named name: String) throws {
        let statement = try live()
        guard let index = Self.parameterIndex(of: name, in: statement) else {
            throw SQLiteError.range("no parameter named \(name)", sql: sql)
        }
        try bind(value, at: Int(index))
    }

    /// Clears previous bindings, then binds `arguments` to parameters 1...n. The count must
    /// equal `parameterCount`, so a forgotten argument is an error instead of a silent NULL.
    public func bind(_ arguments: [(any SQLiteBindable)?]) throws {
        let statement = try live()
        guard arguments.count == Int(sqlite3_bind_parameter_count(statement)) else {
            throw SQLiteError.range(
                "statement expects \(sqlite3_bind_parameter_count(statement)) arguments, got \(arguments.count)",
                sql: sql)
        }
        sqlite3_clear_bindings(statement)
        // By index, reading each argument in place: `enumerated()` copied every existential
        // (a value-witness call each, ≈ 100 per day submission) before binding it.
        for index in arguments.indices {
            let rc = Self.bind(arguments[index]?.sqliteValue ?? .null, at: Int32(index + 1), to: statement)
            guard rc == SQLITE_OK else { throw SQLiteError.from(handle.pointer, resultCode: rc, sql: sql) }
        }
    }

    /// Clears previous bindings, then binds every named parameter from `arguments` (keys with
    /// or without prefix). Every parameter must be named and supplied, and every key used.
    public func bind(named arguments: [String: (any SQLiteBindable)?]) throws {
        let statement = try live()
        sqlite3_clear_bindings(statement)
        var unused = Set(arguments.keys.map(Self.strippedName))
        let values = Dictionary(arguments.map { (Self.strippedName($0.key), $0.value) },
                                uniquingKeysWith: { first, _ in first })
        for index in stride(from: Int32(1), through: sqlite3_bind_parameter_count(statement), by: 1) {
            guard let cName = sqlite3_bind_parameter_name(statement, index) else {
                throw SQLiteError.range("parameter \(index) is positional; bind it by index", sql: sql)
            }
            let name = Self.strippedName(String(cString: cName))
            guard let value = values[name] else {
                throw SQLiteError.range("missing argument for parameter \(String(cString: cName))", sql: sql)
            }
            unused.remove(name)
            try bind(value, at: Int(index))
        }
        if !unused.isEmpty {
            throw SQLiteError.range("no parameter named \(unused.sorted().joined(separator: ", "))", sql: sql)
        }
    }

    /// Sets every parameter back to NULL (https://sqlite.org/c3ref/clear_bindings.html).
    public func clearBindings() {
        if let pointer { sqlite3_clear_bindings(pointer) }
    }

    /// Rewinds the statement so it can run again; bindings are kept. Releases the read
    /// snapshot a partially stepped SELECT holds. The error of a failed step was already
    /// thrown by `step()`, so the return code of `sqlite3_reset` is not reported again.
    public func reset() {
        if let pointer { sqlite3_reset(pointer) }
    }

    // MARK: Running

    /// Advances the statement by one row.
    @discardableResult
    public func step() throws -> StepResult {
        let statement = try live()
        let rc = sqlite3_step(statement)
        // Extended result codes are on, so errors arrive as extended codes; switch on the
        // primary code (https://sqlite.org/c3ref/step.html lists the possible results).
        switch rc & 0xff {
        case SQLITE_ROW:
            return .row
        case SQLITE_DONE:
            return .done
        case SQLITE_BUSY:
            // "If the statement is a COMMIT or occurs outside of an explicit transaction, then
            // you can retry the statement." The busy timeout has already been spent waiting.
            throw SQLiteError.from(handle.pointer, resultCode: rc, sql: sql)
        case SQLITE_MISUSE:
            throw SQLiteError.from(handle.pointer, resultCode: rc, sql: sql)
        default:
            // SQLITE_ERROR, SQLITE_CONSTRAINT, SQLITE_IOERR, SQLITE_FULL, SQLITE_INTERRUPT, ...:
            // with the v2/v3 prepare interfaces the specific code is returned directly.
            throw SQLiteError.from(handle.pointer, resultCode: rc, sql: sql)
        }
    }

    /// The value of column `index` (0-based) of the current row.
    public func column(_ index: Int) throws -> SQLiteValue {
        let statement = try live()
        guard index >= 0, index < Int(sqlite3_column_count(statement)) else {
            throw SQLiteError.range("column index \(index) out of range", sql: sql)
        }
        return try columnValue(statement, Int32(index))
    }

    /// Resets, binds `arguments`, runs to completion, resets again; returns the number of
    /// rows changed (`sqlite3_changes64`, https://sqlite.org/c3ref/changes.html — meaningful
    /// for INSERT, UPDATE and DELETE; other statements leave the previous count).
    @discardableResult
    public func execute(_ arguments: [(any SQLiteBindable)?] = []) throws -> Int {
        reset()
        defer { reset() }
        try bind(arguments)
        while try step() == .row {}
        return Int(sqlite3_changes64(handle.pointer))
    }

    /// Like `execute(_:)` with named arguments.
    @discardableResult
    public func execute(named arguments: [String: (any SQLiteBindable)?]) throws -> Int {
        reset()
        defer { reset() }
        try bind(named: arguments)
        while try step() == .row {}
        return Int(sqlite3_changes64(handle.pointer))
    }

    /// Resets, binds `arguments` and returns every row; the statement is reset afterwards so
    /// it holds no read snapshot.
    public func query(_ arguments: [(any SQLiteBindable)?] = [], limit: Int = .max) throws -> [Row] {
        reset()
        defer { reset() }
        try bind(arguments)
        return try collectRows(limit: limit)
    }

    /// Like `query(_:)` with named arguments.
    public func query(named arguments: [String: (any SQLiteBindable)?], limit: Int = .max) throws -> [Row] {
        reset()
        defer { reset() }
        try bind(named: arguments)
        return try collectRows(limit: limit)
    }

    /// The current row as a value, after `step()` returned `.row`.
    public func currentRow() throws -> Row {
        let statement = try live()
        return try row(statement, layout: layout())
    }

    // MARK: Internals

    private func live() throws -> OpaquePointer {
        _ = try handle.checked(sql: sql)
        guard let pointer else { throw SQLiteError.misuse("the statement was finalized", sql: sql) }
        return pointer
    }

    private func collectRows(limit: Int) throws -> [Row] {
        let statement = try live()
        // Build the layout once per run, not per row, and after the first step: a schema
        // change makes SQLite re-prepare the statement there, and `SELECT *` may then have
        // other columns.
        var layout: RowLayout?
        var rows: [Row] = []
        while rows.count < limit, try step() == .row {
            let current = layout ?? self.layout()
            layout = current
            rows.append(try row(statement, layout: current))
        }
        return rows
    }

    /// The layout for the current columns (cached; rebuilt after a re-prepare).
    private func layout() -> RowLayout {
        let reprepares = pointer.map { sqlite3_stmt_status($0, SQLITE_STMTSTATUS_REPREPARE, 0) } ?? -1
        if let cached = cachedLayout, reprepares == layoutReprepares { return cached }
        let fresh = RowLayout(names: columnNames, sql: sql)
        cachedLayout = fresh
        layoutReprepares = reprepares
        return fresh
    }

    private func row(_ statement: OpaquePointer, layout: RowLayout) throws -> Row {
        var values: [SQLiteValue] = []
        values.reserveCapacity(layout.names.count)
        for index in 0..<Int32(layout.names.count) {
            values.append(try columnValue(statement, index))
        }
        return Row(layout: layout, values: values)
    }

    private func columnValue(_ statement: OpaquePointer, _ index: Int32) throws -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            // "The safest policy is to invoke ... sqlite3_column_text() followed by
            // sqlite3_column_bytes()" (https://sqlite.org/c3ref/column_blob.html). The byte
            // count, not a NUL terminator, delimits the text, so embedded U+0000 survives.
            let bytes = sqlite3_column_text(statement, index)
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let bytes else {
                if count == 0 { return .text("") }
                throw SQLiteError.from(handle.pointer, resultCode: SQLITE_NOMEM, sql: sql)
            }
            return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            // "The return value from sqlite3_column_blob() for a zero-length BLOB is a NULL
            // pointer." (https://sqlite.org/c3ref/column_blob.html)
            let bytes = sqlite3_column_blob(statement, index)
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let bytes, count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            return .null
        }
    }

    private static func bind(_ value: SQLiteValue, at index: Int32, to statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let v):
            return sqlite3_bind_int64(statement, index, v)
        case .real(let v):
            return sqlite3_bind_double(statement, index, v)
        case .text(let v):
            // SQLITE_TRANSIENT: "SQLite makes its own private copy of the data immediately,
            // before the sqlite3_bind_*() routine returns" (https://sqlite.org/c3ref/bind_blob.html),
            // so the Swift buffer may go away after this call. The explicit byte length keeps
            // embedded NUL characters.
            if v.isEmpty {
                return sqlite3_bind_text(statement, index, "", 0, ht_sqlite_transient())
            }
            var text = v
            return text.withUTF8 { utf8 in
                sqlite3_bind_text64(statement, index, utf8.baseAddress, UInt64(utf8.count),
                                    ht_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
        case .blob(let v):
            // A NULL data pointer would bind NULL, so an empty blob is bound as zeroblob(0).
            if v.isEmpty { return sqlite3_bind_zeroblob(statement, index, 0) }
            return v.withUnsafeBytes { bytes in
                sqlite3_bind_blob64(statement, index, bytes.baseAddress, UInt64(bytes.count), ht_sqlite_transient())
            }
        case .null:
            return sqlite3_bind_null(statement, index)
        }
    }

    private static func strippedName(_ name: String) -> String {
        if let first = name.first, ":@$".contains(first) { return String(name.dropFirst()) }
        return name
    }

    private static func parameterIndex(of name: String, in statement: OpaquePointer) -> Int32? {
        let candidates = name.first.map { ":@$".contains($0) } == true ? [name] : [":" + name, "@" + name, "$" + name]
        for candidate in candidates {
            let index = sqlite3_bind_parameter_index(statement, candidate)
            if index > 0 { return index }
        }
        return nil
    }

    /// Whether `text` (the tail after the first statement) holds another statement, as opposed
    /// to whitespace, comments or stray semicolons.
    private static func containsStatement(_ text: String, db: OpaquePointer) throws -> Bool {
        var rest = Substring(text)
        while !rest.allSatisfy({ $0.isWhitespace || $0 == ";" }) {
            var statement: OpaquePointer?
            var consumed = 0
            let rc = String(rest).withCString { base -> Int32 in
                var tail: UnsafePointer<CChar>?
                let rc = sqlite3_prepare_v2(db, base, -1, &statement, &tail)
                if let tail { consumed = tail - base }
                return rc
            }
            if statement != nil {
                sqlite3_finalize(statement)
                return true
            }
            // A syntax error in the tail is still "more text than one statement".
            if rc != SQLITE_OK { return true }
            let utf8 = String(rest).utf8
            guard consumed > 0, consumed <= utf8.count else { return false }
            rest = Substring(String(decoding: utf8.dropFirst(consumed), as: UTF8.self))
        }
        return false
    }
}
