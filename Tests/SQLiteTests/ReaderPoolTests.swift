import SQLite
import Testing

@Suite struct ReaderPoolTests {
    @Test func readersSeeCommittedWritesAndOneSnapshotPerRead() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/test.sqlite"
            let writer = GroupCommitWriter(connection: try openWithEntries(dir))
            let pool = try ReaderPool(path: path, maximumReaders: 2)
            try writer.write { db in try db.execute("INSERT INTO entries(tag) VALUES (?)", ["first"]) }
            #expect(try pool.read { db in try db.scalar("SELECT count(*) FROM entries", as: Int.self) } == 1)

            let (before, after) = try pool.read { db in
                let before = try db.scalar("SELECT count(*) FROM entries", as: Int.self)
                try writer.write { db in try db.execute("INSERT INTO entries(tag) VALUES (?)", ["second"]) }
                let after = try db.scalar("SELECT count(*) FROM entries", as: Int.self)
                return (before, after)
            }
            #expect(before == 1)
            #expect(after == 1)  // same snapshot inside one read
            #expect(try pool.read { db in try db.scalar("SELECT count(*) FROM entries", as: Int.self) } == 2)
            writer.close()
            pool.close()
            #expect(throws: SQLiteError.self) { try pool.read { _ in 0 } }
        }
    }

    @Test func manyThreadsShareAFewReaders() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            try db.execute("INSERT INTO entries(tag, value) VALUES (?, ?)", ["x", 7])
            let pool = try ReaderPool(path: dir + "/test.sqlite", maximumReaders: 2)
            let sum = Locked(0)
            runOnThreads(6) { _ in
                for _ in 0..<50 {
                    let value = try? pool.read { db in try db.scalar("SELECT value FROM entries", as: Int.self) }
                    sum.withLock { $0 += (value ?? nil) ?? 0 }
                }
            }
            #expect(sum.current == 6 * 50 * 7)
        }
    }

    @Test func readerConnectionsCannotWrite() throws {
        try withTemporaryDirectory { dir in
            _ = try openWithEntries(dir)
            let pool = try ReaderPool(path: dir + "/test.sqlite")
            let error = #expect(throws: SQLiteError.self) {
                try pool.read { db in try db.execute("INSERT INTO entries(tag) VALUES (?)", ["x"]) }
            }
            #expect(error?.code == SQLiteError.Code.readOnly)
        }
    }
}
