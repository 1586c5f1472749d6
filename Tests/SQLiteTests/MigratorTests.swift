import SQLite
import Testing

@Suite struct MigratorTests {
    private func tableNames(_ db: Connection) throws -> [String] {
        try db.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").map { try $0.string("name") }
    }

    @Test func migrationsRunOnceInOrderAndAreRecorded() throws {
        try withTemporaryDirectory { dir in
            let runs = Locked([String]())
            var migrator = Migrator()
            migrator.register("v1_create_patients") { db in
                runs.withLock { $0.append("v1") }
                try db.execute("CREATE TABLE patients(id INTEGER PRIMARY KEY, study_id TEXT NOT NULL UNIQUE)")
            }
            migrator.register("v2_add_site") { db in
                runs.withLock { $0.append("v2") }
                try db.execute("ALTER TABLE patients ADD COLUMN site TEXT")
            }
            let db = try Connection(path: dir + "/m.sqlite")
            #expect(try migrator.migrate(db) == ["v1_create_patients", "v2_add_site"])
            #expect(try migrator.migrate(db) == [])
            #expect(runs.current == ["v1", "v2"])
            #expect(try migrator.appliedMigrations(in: db) == ["v1_create_patients", "v2_add_site"])
            let appliedAt = try db.scalar("SELECT applied_at FROM schema_migrations WHERE name = ?", ["v2_add_site"], as: String.self)
            #expect(appliedAt?.hasSuffix("Z") == true)
            db.close()

            // A later build adds a migration: only that one runs on the existing database.
            migrator.register("v3_add_index") { db in
                try db.execute("CREATE INDEX patients_site ON patients(site)")
            }
            let reopened = try Connection(path: dir + "/m.sqlite")
            #expect(try migrator.migrate(reopened) == ["v3_add_index"])
            #expect(try reopened.pragma("foreign_keys") == .integer(1))
        }
    }

    @Test func failingMigrationLeavesSchemaAndDataUntouched() throws {
        try withTemporaryDirectory { dir in
            var migrator = Migrator()
            migrator.register("v1_create_patients") { db in
                try db.execute("CREATE TABLE patients(id INTEGER PRIMARY KEY, study_id TEXT NOT NULL)")
            }
            migrator.register("v2_broken") { db in
                try db.execute("CREATE TABLE visits(id INTEGER PRIMARY KEY)")
                try db.execute("INSERT INTO patients(study_id) VALUES (?)", ["HT-1"])
                try db.execute("ALTER TABLE patients ADD COLUMN site TEXT")
                throw TestFailure(tag: 2)
            }
            let db = try Connection(path: dir + "/m.sqlite")
            let error = try #require(#expect(throws: MigrationError.self) { try migrator.migrate(db) })
            #expect(error.kind == .migrationFailed)
            #expect(error.migrations == ["v2_broken"])
            #expect(error.underlying as? TestFailure == TestFailure(tag: 2))
            #expect(try tableNames(db) == ["patients", "schema_migrations"])
            #expect(try db.scalar("SELECT count(*) FROM patients", as: Int.self) == 0)
            #expect(try db.query("PRAGMA table_info(patients)").count == 2)
            #expect(try migrator.appliedMigrations(in: db) == ["v1_create_patients"])
            #expect(!db.isInTransaction)
            #expect(try db.pragma("foreign_keys") == .integer(1))
        }
    }

    @Test func databaseWithAnUnknownAppliedMigrationIsRefused() throws {
        try withTemporaryDirectory { dir in
            var newer = Migrator()
            newer.register("v1_create_patients") { db in try db.execute("CREATE TABLE patients(id INTEGER PRIMARY KEY)") }
            newer.register("v2_create_visits") { db in try db.execute("CREATE TABLE visits(id INTEGER PRIMARY KEY)") }
            let db = try Connection(path: dir + "/m.sqlite")
            try newer.migrate(db)

            var older = Migrator()
            older.register("v1_create_patients") { db in try db.execute("CREATE TABLE patients(id INTEGER PRIMARY KEY)") }
            let error = #expect(throws: MigrationError.self) { try older.migrate(db) }
            #expect(error?.kind == .unknownAppliedMigrations)
            #expect(error?.migrations == ["v2_create_visits"])
            #expect(error?.description.contains("newer") == true)
        }
    }

    @Test func databaseMissingAMigrationBeforeARecordedOneIsRefusedAndNothingRuns() throws {
        try withTemporaryDirectory { dir in
            let runs = Locked([String]())
            var migrator = Migrator()
            for name in ["v1_create_patients", "v2_convert_patients", "v3_create_visits"] {
                migrator.register(name) { db in
                    runs.withLock { $0.append(name) }
                    try db.execute("CREATE TABLE \(name)(id INTEGER PRIMARY KEY)")
                }
            }
            let db = try Connection(path: dir + "/m.sqlite")
            try migrator.migrate(db)
            // Someone deletes the record of a migration in the middle, so it would run again.
            try db.execute("DELETE FROM schema_migrations WHERE name = 'v2_convert_patients'")
            runs.withLock { $0 = [] }

            let error = #expect(throws: MigrationError.self) { try migrator.migrate(db) }
            #expect(error?.kind == .missingAppliedMigrations)
            #expect(error?.migrations == ["v2_convert_patients"])
            #expect(error?.lastApplied == "v3_create_visits")
            #expect(error?.description.contains("does not record migration v2_convert_patients") == true, "\(String(describing: error))")
            #expect(error?.description.contains("v3_create_visits") == true)
            #expect(runs.current.isEmpty)
            #expect(try migrator.appliedMigrations(in: db) == ["v1_create_patients", "v3_create_visits"])
            // The read-only check says the same.
            #expect(throws: MigrationError.self) { try migrator.checkApplied(in: db) }
        }
    }

    @Test func databaseOfAnOlderBuildIsNoGapAndIsMigratedOn() throws {
        try withTemporaryDirectory { dir in
            var older = Migrator()
            older.register("v1_create_patients") { db in try db.execute("CREATE TABLE patients(id INTEGER PRIMARY KEY)") }
            let db = try Connection(path: dir + "/m.sqlite")
            try older.migrate(db)
            var newer = older
            newer.register("v2_create_visits") { db in try db.execute("CREATE TABLE visits(id INTEGER PRIMARY KEY)") }
            newer.register("v3_create_labs") { db in try db.execute("CREATE TABLE labs(id INTEGER PRIMARY KEY)") }
            try newer.checkApplied(in: db)
            #expect(try newer.migrate(db) == ["v2_create_visits", "v3_create_labs"])
        }
    }

    @Test func migrationCanRebuildATableButNotLeaveForeignKeyViolations() throws {
        try withTemporaryDirectory { dir in
            var migrator = Migrator()
            migrator.register("v1") { db in
                try db.execute("""
                    CREATE TABLE patients(id INTEGER PRIMARY KEY, study_id TEXT);
                    CREATE TABLE entries(id INTEGER PRIMARY KEY, patient_id INTEGER NOT NULL REFERENCES patients(id));
                    INSERT INTO patients VALUES (1, 'HT-1');
                    INSERT INTO entries VALUES (1, 1);
                    """)
            }
            // SQLite's 12-step table rebuild: only possible with enforcement off during the migration.
            migrator.register("v2_rebuild_patients") { db in
                try db.execute("""
                    CREATE TABLE patients_new(id INTEGER PRIMARY KEY, study_id TEXT NOT NULL);
                    INSERT INTO patients_new SELECT id, study_id FROM patients;
                    DROP TABLE patients;
                    ALTER TABLE patients_new RENAME TO patients;
                    """)
            }
            migrator.register("v3_orphan") { db in
                try db.execute("INSERT INTO entries VALUES (2, 99)")
            }
            let db = try Connection(path: dir + "/m.sqlite")
            let error = #expect(throws: MigrationError.self) { try migrator.migrate(db) }
            #expect(error?.kind == .foreignKeyViolation)
            #expect(error?.migrations == ["v3_orphan"])
            #expect(try migrator.appliedMigrations(in: db) == ["v1", "v2_rebuild_patients"])
            #expect(try db.scalar("SELECT count(*) FROM entries", as: Int.self) == 1)
            #expect(try db.pragma("foreign_keys") == .integer(1))
        }
    }
}
