/// Applies named schema migrations in registration order, each exactly once.
///
///     var migrator = Migrator()
///     migrator.register("v1_create_patients") { db in
///         try db.execute("CREATE TABLE patients(id INTEGER PRIMARY KEY, study_id TEXT NOT NULL UNIQUE)")
///     }
///     try migrator.migrate(connection)
///
/// Each migration runs in its own `BEGIN IMMEDIATE` transaction and is recorded in
/// `schema_migrations(name, applied_at)` inside that same transaction, so a migration that
/// throws leaves neither its schema changes nor its record. Names are never renamed or
/// removed once shipped: the database refuses code that lacks a name it has applied, and a
/// database that records a migration without every one registered before it is refused too.
///
/// While a migration runs, foreign key enforcement is switched off and
/// `PRAGMA foreign_key_check` is run before COMMIT instead, so a migration can rebuild a
/// table with SQLite's 12-step procedure (https://sqlite.org/lang_altertable.html#otheralter).
/// The pragma has to be set outside the transaction: "foreign key constraint enforcement may
/// only be enabled or disabled when there is no pending BEGIN or SAVEPOINT"
/// (https://sqlite.org/foreignkeys.html#fk_enable). Statements that cannot run in a
/// transaction (`VACUUM`, changing `journal_mode`) do not belong in migrations.
public struct Migrator {
    private var migrations: [(name: String, migrate: (Connection) throws -> Void)] = []

    /// An empty migrator.
    public init() {}

    /// Registers a migration to run after the ones registered before it. Names must be unique
    /// and non-empty (a duplicate is a programming error and traps).
    public mutating func register(_ name: String, _ migrate: @escaping (Connection) throws -> Void) {
        precondition(!name.isEmpty, "migration name must not be empty")
        precondition(!migrations.contains { $0.name == name }, "migration \(name) registered twice")
        migrations.append((name, migrate))
    }

    /// The registered names, in order.
    public var registeredNames: [String] { migrations.map(\.name) }

    /// The names recorded in the database, in application order; empty for a new database.
    public func appliedMigrations(in db: Connection) throws -> [String] {
        let exists = try db.scalar(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'",
            as: Int.self) ?? 0
        guard exists > 0 else { return [] }
        return try db.query("SELECT name FROM schema_migrations ORDER BY rowid").map { try $0.string(0) }
    }

    /// Throws `MigrationError` if this migrator cannot carry on from what `db` records: a name
    /// it does not know (`.unknownAppliedMigrations`: a newer release migrated the database), or
    /// a registered migration that is not recorded although a later one is
    /// (`.missingAppliedMigrations`). Migrations are only ever applied in order, so a gap means
    /// `schema_migrations` was edited or the database is damaged; running the missing one again
    /// on a database whose later migrations already ran is never safe (it may undo or redo what
    /// they built on — e.g. accept a forged state as the one it once converted). Reads only:
    /// usable on a read-only connection.
    public func checkApplied(in db: Connection) throws {
        let applied = try appliedMigrations(in: db)
        let known = Set(registeredNames)
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw MigrationError(kind: .unknownAppliedMigrations, migrations: unknown)
        }
        let recorded = Set(applied)
        guard let lastRecorded = registeredNames.lastIndex(where: recorded.contains) else { return }
        let missing = registeredNames[..<lastRecorded].filter { !recorded.contains($0) }
        guard missing.isEmpty else {
            throw MigrationError(kind: .missingAppliedMigrations, migrations: missing,
                                 lastApplied: registeredNames[lastRecorded])
        }
    }

    /// Applies every registered migration not yet recorded, and returns their names. A database
    /// refused by `checkApplied(in:)` is not changed (beyond an empty `schema_migrations`).
    /// Throws `MigrationError` (nothing of the failing migration is kept) or `SQLiteError`.
    @discardableResult
    public func migrate(_ db: Connection) throws -> [String] {
        guard !db.isInTransaction else {
            throw SQLiteError.misuse("migrate() must not be called inside a transaction")
        }
        try db.transaction(.immediate) {
            try db.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations(
                    name TEXT PRIMARY KEY NOT NULL,
                    applied_at TEXT NOT NULL)
                """)
        }
        try checkApplied(in: db)

        var applied: [String] = []
        for migration in migrations {
            if try apply(migration, to: db) { applied.append(migration.name) }
        }
        return applied
    }

    /// Runs one migration in its own immediate transaction; false if it was already applied.
    private func apply(_ migration: (name: String, migrate: (Connection) throws -> Void),
                       to db: Connection) throws -> Bool {
        let foreignKeysWereOn = try db.pragma("foreign_keys") == .integer(1)
        if foreignKeysWereOn { try db.setPragma("foreign_keys", to: "OFF") }
        defer { if foreignKeysWereOn { _ = try? db.setPragma("foreign_keys", to: "ON") } }

        return try db.transaction(.immediate) {
            // Checked again under the write lock: another process may have applied it since
            // this one listed the applied migrations.
            let done = try db.scalar("SELECT count(*) FROM schema_migrations WHERE name = ?",
                                     [migration.name], as: Int.self) ?? 0
            if done > 0 { return false }
            do {
                try migration.migrate(db)
            } catch {
                throw MigrationError(kind: .migrationFailed, migrations: [migration.name], underlying: error)
            }
            if foreignKeysWereOn {
                let violations = try db.query("PRAGMA foreign_key_check")
                if let first = violations.first {
                    let table = (try? first.string("table")) ?? "?"
                    let parent = (try? first.string("parent")) ?? "?"
                    throw MigrationError(
                        kind: .foreignKeyViolation, migrations: [migration.name],
                        underlying: SQLiteError(extendedCode: SQLiteError.Code.constraint,
                                                message: "\(violations.count) row(s) violate foreign keys, first in \(table) referencing \(parent)"))
                }
            }
            try db.execute("INSERT INTO schema_migrations(name, applied_at) VALUES (?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                           [migration.name])
            return true
        }
    }
}
