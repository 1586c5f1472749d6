import SQLite
import Testing

@Suite struct TransactionTests {
    @Test func transactionRollsBackEverythingWhenBodyThrows() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            #expect(throws: TestFailure(tag: 1)) {
                try db.transaction {
                    try db.execute("INSERT INTO entries(tag) VALUES (?)", ["a"])
                    try db.execute("INSERT INTO entries(tag) VALUES (?)", ["b"])
                    throw TestFailure(tag: 1)
                }
            }
            #expect(!db.isInTransaction)
            #expect(try db.scalar("SELECT count(*) FROM entries", as: Int.self) == 0)
        }
    }

    @Test func transactionCommitsAndReturnsTheBodyValue() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            let id = try db.transaction(.immediate) { () throws -> Int64 in
                try db.execute("INSERT INTO entries(tag) VALUES (?)", ["a"])
                return db.lastInsertRowID
            }
            #expect(id == 1)
            #expect(db.changes == 1)
            #expect(try db.scalar("SELECT count(*) FROM entries", as: Int.self) == 1)
        }
    }

    @Test func nestedTransactionRollsBackOnlyItsSavepoint() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            try db.transaction {
                try db.execute("INSERT INTO entries(tag) VALUES (?)", ["outer"])
                #expect(throws: TestFailure.self) {
                    try db.transaction {
                        try db.execute("INSERT INTO entries(tag) VALUES (?)", ["inner"])
                        throw TestFailure(tag: 2)
                    }
                }
                try db.transaction {
                    try db.execute("INSERT INTO entries(tag) VALUES (?)", ["inner-ok"])
                }
            }
            let tags = try db.query("SELECT tag FROM entries ORDER BY id").map { try $0.string("tag") }
            #expect(tags == ["outer", "inner-ok"])
        }
    }

    @Test func immediateTransactionTakesTheWriteLockAtBegin() throws {
        try withTemporaryDirectory { dir in
            let first = try openWithEntries(dir)
            let second = try Connection(path: dir + "/test.sqlite",
                                        options: Connection.Options(busyTimeout: .zero))
            try first.transaction(.immediate) {
                // `first` has not written anything yet, but already holds the write lock.
                let begin = #expect(throws: SQLiteError.self) {
                    try second.transaction(.immediate) {}
                }
                #expect(begin?.isBusy == true)
                let write = #expect(throws: SQLiteError.self) {
                    try second.execute("INSERT INTO entries(tag) VALUES (?)", ["second"])
                }
                #expect(write?.isBusy == true)
                // WAL: the other connection still reads.
                let visible = try second.scalar("SELECT count(*) FROM entries", as: Int.self)
                #expect(visible == 0)
            }
            // A deferred transaction that only reads takes no write lock.
            try first.transaction(.deferred) {
                _ = try first.query("SELECT * FROM entries")
                try second.execute("INSERT INTO entries(tag) VALUES (?)", ["second"])
            }
            #expect(try first.scalar("SELECT count(*) FROM entries", as: Int.self) == 1)
        }
    }
}
