import CSQLite

extension Connection {
    /// Runs a script: every statement in `sql`, in order, rows ignored. For schema scripts
    /// and migrations; no arguments can be bound. A failing statement throws with its own
    /// text as `sql`, and statements before it stay applied (wrap in `transaction` for
    /// all-or-nothing).
    public func execute(_ sql: String) throws {
        let db = try handle.checked(sql: sql)
        try sql.withCString { base in
            var cursor = base
            while cursor.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let rc = sqlite3_prepare_v2(db, cursor, -1, &statement, &tail)
                guard rc == SQLITE_OK else {
                    throw SQLiteError.from(db, resultCode: rc, sql: String(cString: cursor))
                }
                defer { sqlite3_finalize(statement) }  // harmless on NULL
                // Without progress there is nothing more SQLite can parse.
                guard let tail, tail > cursor else { break }
                cursor = tail
                // Whitespace or a comment compiles to no statement.
                guard let statement else { continue }
                var step = sqlite3_step(statement)
                while step == SQLITE_ROW { step = sqlite3_step(statement) }
                guard step == SQLITE_DONE else {
                    throw SQLiteError.from(db, resultCode: step, sql: String(cString: sqlite3_sql(statement)))
                }
            }
        }
    }

    /// Runs one statement with positional arguments (count must match the placeholders) and
    /// returns the number of rows it changed. Uses the statement cache.
    ///
    ///     try db.execute("INSERT INTO patients(study_id, pod) VALUES (?, ?)", [studyId, 3])
    @discardableResult
    public func execute(_ sql: String, _ arguments: [(any SQLiteBindable)?]) throws -> Int {
        try cachedStatement(sql).execute(arguments)
    }

    /// Runs one statement with named arguments (`:id`, `@id` or `$id`; keys with or without
    /// the prefix) and returns the number of rows it changed.
    @discardableResult
    public func execute(_ sql: String, named arguments: [String: (any SQLiteBindable)?]) throws -> Int {
        try cachedStatement(sql).execute(named: arguments)
    }

    /// All rows of a query.
    public func query(_ sql: String, _ arguments: [(any SQLiteBindable)?] = []) throws -> [Row] {
        try cachedStatement(sql).query(arguments)
    }

    /// All rows of a query with named arguments.
    public func query(_ sql: String, named arguments: [String: (any SQLiteBindable)?]) throws -> [Row] {
        try cachedStatement(sql).query(named: arguments)
    }

    /// The first row of a query, or nil if it returns none. Stops after that row.
    public func queryOne(_ sql: String, _ arguments: [(any SQLiteBindable)?] = []) throws -> Row? {
        try cachedStatement(sql).query(arguments, limit: 1).first
    }

    /// The first row of a query with named arguments, or nil.
    public func queryOne(_ sql: String, named arguments: [String: (any SQLiteBindable)?]) throws -> Row? {
        try cachedStatement(sql).query(named: arguments, limit: 1).first
    }

    /// The first column of the first row decoded as `T`; nil if there is no row or the value
    /// is NULL; throws if the value has another storage class.
    ///
    ///     let count = try db.scalar("SELECT count(*) FROM entries", as: Int.self) ?? 0
    public func scalar<T: SQLiteDecodable>(_ sql: String, _ arguments: [(any SQLiteBindable)?] = [],
                                           as type: T.Type = T.self) throws -> T? {
        guard let row = try queryOne(sql, arguments), row.count > 0 else { return nil }
        return try row.getOptional(0, as: T.self)
    }
}

extension Connection {
    /// Steps one statement and hands `body` each row as it is read, so a long result is never
    /// held in memory at once; `body` returns false to stop early. The statement is reset
    /// afterwards (it holds no read snapshot). Do not write to the table being read from `body`:
    /// on one connection there is no isolation between a running SELECT and changes made while
    /// it steps, and whether a changed row is seen again, once or not at all is undefined
    /// (https://sqlite.org/isolation.html, "No Isolation Between Operations On The Same
    /// Database Connection").
    public func forEachRow(_ sql: String, _ arguments: [(any SQLiteBindable)?] = [], _ body: (Row) throws -> Bool) throws {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() == .row {
            guard try body(try statement.currentRow()) else { return }
        }
    }
}
