import SQLite
import Testing

@Suite struct ErrorTests {
    @Test func errorCarriesCodeMessageAndSQLButNeverTheArguments() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            let secret = "PATIENT-SECRET-4711"
            let sql = "INSERT INTO entries(tag, value) VALUES (?, ?)"
            try db.execute(sql, [secret, 1])
            let error = try #require(#expect(throws: SQLiteError.self) {
                try db.execute(sql, [secret, 2])
            })
            #expect(error.code == SQLiteError.Code.constraint)
            #expect(error.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
            #expect(error.codeName == "SQLITE_CONSTRAINT_UNIQUE")
            #expect(error.message.contains("UNIQUE constraint failed: entries.tag"))
            #expect(error.sql == sql)
            #expect(!error.description.contains(secret))
            #expect(!error.message.contains(secret))
            #expect(error.description.contains(sql))
        }
    }

    @Test func constraintViolationsAreClassified() throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir + "/c.sqlite")
            try db.execute("""
                CREATE TABLE patients(id INTEGER PRIMARY KEY, study_id TEXT NOT NULL UNIQUE);
                CREATE TABLE entries(id INTEGER PRIMARY KEY,
                                     patient_id INTEGER NOT NULL REFERENCES patients(id),
                                     pod INTEGER CHECK (pod >= 0));
                INSERT INTO patients(id, study_id) VALUES (1, 'HT-1');
                """)
            let unique = #expect(throws: SQLiteError.self) {
                try db.execute("INSERT INTO patients(study_id) VALUES (?)", ["HT-1"])
            }
            #expect(unique?.isConstraintViolation == true)
            #expect(unique?.isUniqueConstraintViolation == true)

            let notNull = #expect(throws: SQLiteError.self) {
                try db.execute("INSERT INTO patients(study_id) VALUES (?)", [nil])
            }
            #expect(notNull?.isNotNullViolation == true)

            let foreignKey = #expect(throws: SQLiteError.self) {
                try db.execute("INSERT INTO entries(patient_id, pod) VALUES (?, ?)", [99, 1])
            }
            #expect(foreignKey?.isForeignKeyViolation == true)

            let check = #expect(throws: SQLiteError.self) {
                try db.execute("INSERT INTO entries(patient_id, pod) VALUES (?, ?)", [1, -1])
            }
            #expect(check?.isCheckViolation == true)
            #expect(check?.isBusy == false)
        }
    }

    @Test func syntaxErrorNamesTheStatement() throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir + "/s.sqlite")
            let error = #expect(throws: SQLiteError.self) { try db.query("SELEC 1") }
            #expect(error?.code == SQLiteError.Code.error)
            #expect(error?.message.contains("syntax error") == true)
            #expect(error?.sql == "SELEC 1")
        }
    }

    @Test func doubleQuotedStringLiteralsAreRejected() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            // With DQS disabled, "a" is an identifier, so a typo cannot become a string.
            let error = #expect(throws: SQLiteError.self) {
                try db.query("SELECT * FROM entries WHERE tag = \"a\"")
            }
            #expect(error?.message.contains("no such column") == true)
        }
    }

    @Test func scriptErrorNamesTheFailingStatementAndKeepsEarlierOnes() throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir + "/script.sqlite")
            let error = #expect(throws: SQLiteError.self) {
                try db.execute("""
                    CREATE TABLE a(x);
                    INSERT INTO a VALUES (1);
                    INSERT INTO missing VALUES (2);
                    """)
            }
            #expect(error?.sql?.contains("missing") == true)
            #expect(try db.scalar("SELECT count(*) FROM a", as: Int.self) == 1)
        }
    }
}
