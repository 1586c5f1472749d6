/// Why `Migrator.migrate` refused or failed. Nothing of a failed migration is left in the
/// database; migrations before it stay applied.
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The database records migrations this code does not know: it was migrated by a
        /// newer version of the server. Running older code against it could corrupt data.
        case unknownAppliedMigrations
        /// Migrations registered before one the database records are not recorded themselves:
        /// `schema_migrations` was edited or the database is damaged. Running them now, after
        /// the later ones, could corrupt data or accept a forged state.
        case missingAppliedMigrations
        /// A migration threw; its transaction was rolled back.
        case migrationFailed
        /// A migration left rows that violate foreign keys (`PRAGMA foreign_key_check`).
        case foreignKeyViolation
    }

    /// What went wrong.
    public let kind: Kind
    /// The migration names concerned (the unknown ones, the missing ones, or the one that failed).
    public let migrations: [String]
    /// The error the migration threw, if any.
    public let underlying: (any Error)?
    /// For `.missingAppliedMigrations`: the last registered migration the database does record.
    public let lastApplied: String?

    /// Creates a migration error.
    public init(kind: Kind, migrations: [String], underlying: (any Error)? = nil, lastApplied: String? = nil) {
        self.kind = kind
        self.migrations = migrations
        self.underlying = underlying
        self.lastApplied = lastApplied
    }

    /// One line for logs and for the operator.
    public var description: String {
        let names = migrations.joined(separator: ", ")
        switch kind {
        case .unknownAppliedMigrations:
            return "database has migrations this build does not know (\(names)); it was migrated by a newer version — refusing to open it"
        case .missingAppliedMigrations:
            return "database does not record migration\(migrations.count == 1 ? "" : "s") \(names) although it records a later one "
                + "(\(lastApplied ?? "?")): its schema_migrations was edited or it is damaged — refusing to open it "
                + "rather than run \(names) again; restore a backup"
        case .migrationFailed:
            return "migration \(names) failed and was rolled back: \(underlying.map { "\($0)" } ?? "unknown error")"
        case .foreignKeyViolation:
            return "migration \(names) left foreign key violations and was rolled back: \(underlying.map { "\($0)" } ?? "")"
        }
    }
}
