import SQLite
import Testing

@Suite struct StatementTests {
    @Test func preparedStatementIsReusedAfterResetWithNewBindings() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            let insert = try db.prepare("INSERT INTO entries(tag, value) VALUES (?, ?)")
            #expect(insert.parameterCount == 2)
            #expect(!insert.isReadOnly)
            for index in 0..<5 {
                #expect(try insert.execute(["tag-\(index)", index]) == 1)
            }
            let select = try db.prepare("SELECT tag, value FROM entries WHERE value >= ? ORDER BY value")
            #expect(select.columnNames == ["tag", "value"])
            try select.bind(3, at: 1)
            var tags: [String] = []
            while try select.step() == .row {
                tags.append(try select.currentRow().string("tag"))
            }
            #expect(tags == ["tag-3", "tag-4"])
            select.reset()
            select.clearBindings()
            try select.bind(4, at: 1)
            #expect(try select.step() == .row)
            #expect(try select.column(0) == .text("tag-4"))
            #expect(try select.step() == .done)
            select.finalize()
            #expect(throws: SQLiteError.self) { try select.step() }
        }
    }

    /// The statement cache hashes only the start and the end of long texts; texts alike there
    /// must still get their own statements.
    @Test func cachedStatementsWhoseLongTextsDifferOnlyInTheMiddleStayApart() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            let start = "SELECT value FROM entries WHERE tag LIKE ? AND value "
            let end = " ? /* the same forty bytes at the end of both texts...... */"
            for (index, comparison) in ["<", ">", "<", ">"].enumerated() {
                try db.execute("INSERT INTO entries(tag, value) VALUES (?, ?)", ["t\(index)", index * 10])
                let rows = try db.query(start + comparison + end, ["t%", 15])
                let values = try rows.map { try $0.int("value") }.sorted()
                #expect(values == (comparison == "<" ? [0, 10] : [20, 30]).filter { $0 <= index * 10 })
            }
        }
    }

    /// A cached `SELECT *` keeps its column layout between runs, but not past a schema change
    /// that SQLite re-prepares it for.
    @Test func aCachedStatementSeesColumnsAddedByASchemaChange() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            try db.execute("INSERT INTO entries(tag, value) VALUES (?, ?)", ["a", 1])
            let before = try db.query("SELECT * FROM entries")
            #expect(before.count == 1 && (try? before[0].string("extra")) == nil)
            #expect(try db.query("SELECT * FROM entries")[0].string("tag") == "a")
            try db.execute("ALTER TABLE entries ADD COLUMN extra TEXT NOT NULL DEFAULT 'x'")
            let after = try db.query("SELECT * FROM entries")
            #expect(try after[0].string("extra") == "x")
            #expect(try after[0].string("tag") == "a")
        }
    }

    @Test func wrongArgumentCountIsRefusedInsteadOfBindingNull() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            let error = #expect(throws: SQLiteError.self) {
                try db.execute("INSERT INTO entries(tag, value) VALUES (?, ?)", ["only-one"])
            }
            #expect(error?.message.contains("expects 2 arguments, got 1") == true)
        }
    }

    @Test func prepareRefusesMoreThanOneStatement() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            let error = #expect(throws: SQLiteError.self) {
                _ = try db.prepare("DELETE FROM entries; DROP TABLE entries")
            }
            #expect(error?.isMisuse == true)
            // A trailing semicolon or comment is still one statement.
            _ = try db.prepare("SELECT 1; -- done\n")
            #expect(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'entries'", as: Int.self) == 1)
        }
    }

    @Test func cachedStatementIsNotDisturbedByReentrantUse() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            for index in 0..<3 { try db.execute("INSERT INTO entries(tag, value) VALUES (?, ?)", ["t\(index)", index]) }
            let sql = "SELECT value FROM entries ORDER BY value"
            let outer = try db.cachedStatement(sql)
            try outer.bind([])
            #expect(try outer.step() == .row)
            // The same SQL while `outer` is mid-iteration gets its own statement.
            #expect(try db.query(sql).count == 3)
            #expect(try outer.step() == .row)
            #expect(try outer.column(0) == .integer(1))
            outer.reset()
        }
    }

    @Test func statementOfClosedConnectionThrowsInsteadOfCrashing() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            let statement = try db.prepare("SELECT count(*) FROM entries")
            db.close()
            let error = #expect(throws: SQLiteError.self) { try statement.step() }
            #expect(error?.isMisuse == true)
            #expect(throws: SQLiteError.self) { try db.query("SELECT 1") }
            #expect(db.isClosed)
        }
    }
}
