/// Why `Migrator.migrate` refused or failed. Nothing of a failed migration is left in the
/// database; migrations before it stay applied.
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The database records migrations this code does not know: it was migrated by a
        /// newer version of the server. Running older code against it could corrupt data.
        case unknownAppliedMigrations
        /// A migration threw; its transaction was rolled back.
        case migrationFailed
        /// A migration left rows that violate foreign keys (`PRAGMA foreign_key_check`).
        case foreignKeyViolation
    }

    /// What went wrong.
    public let kind: Kind
    /// The migration names concerned (the unknown ones, or the one that failed).
    public let migrations: [String]
    /// The error the migration threw, if any.
    public let underlying: (any Error)?

    /// Creates a migration error.
    public init(kind: Kind, migrations: [String], underlying: (any Error)? = nil) {
        self.kind = kind
        self.migrations = migrations
        self.underlying = underlying
    }

    /// One line for logs and for the operator.
    public var description: String {
        let names = migrations.joined(separator: ", ")
        switch kind {
        case .unknownAppliedMigrations:
            return "database has migrations this build does not know (\(names)); it was migrated by a newer version — refusing to open it"
        case .migrationFailed:
            return "migration \(names) failed and was rolled back: \(underlying.map { "\($0)" } ?? "unknown error")"
        case .foreignKeyViolation:
            return "migration \(names) left foreign key violations and was rolled back: \(underlying.map { "\($0)" } ?? "")"
        }
    }
}
