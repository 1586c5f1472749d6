import Foundation
import Testing
import Crypto
import SQLite
@testable import HyponaTrackServer

/// Migrations are applied by name, so a shipped one must keep its SQL: a database created before
/// the DDL moved beside its tables neither re-runs nor misses a statement.
@Suite struct StoreSchemaTests {
    @Test func v3AlertsStillRunsTheShippedSQLByteForByte() {
        // SHA-256 of AlertsSchema.v1 as shipped (commit a1ff6a1), when it held all five tables.
        #expect(Crypto.hex(Crypto.sha256(Array(Schema.v3Alerts.utf8)))
                == "80b350d1dd202aee3403a5b190810a6c5df8f11c14dba5a07e50a4113776df86")
    }

    @Test func reopeningAMigratedDatabaseAppliesNothing() throws {
        let store = try DaemonDatabase()
        let connection = try Connection(path: store.database.path)
        defer { connection.close() }
        #expect(try Schema.migrator().appliedMigrations(in: connection).last == "v3_alerts")
        #expect(try Schema.migrator().migrate(connection).isEmpty)
    }
}
