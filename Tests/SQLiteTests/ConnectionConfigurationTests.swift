import Foundation
import SQLite
import Testing

@Suite struct ConnectionConfigurationTests {
    @Test func walSynchronousFullAndForeignKeysAreReallySet() throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir + "/config.sqlite")
            #expect(try db.pragma("journal_mode") == .text("wal"))
            #expect(try db.pragma("synchronous") == .integer(2))  // FULL
            #expect(try db.pragma("foreign_keys") == .integer(1))
            #expect(db.busyTimeout == .seconds(5))
            #expect(try db.pragma("busy_timeout") == .integer(5000))
            db.busyTimeout = .milliseconds(250)
            #expect(try db.pragma("busy_timeout") == .integer(250))
        }
    }

    @Test func pragmaNamesAndValuesCannotInjectSQL() throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir + "/config.sqlite")
            #expect(throws: SQLiteError.self) { try db.pragma("user_version; DROP TABLE x") }
            #expect(throws: SQLiteError.self) { try db.setPragma("user_version", to: "1; DROP TABLE x") }
            try db.setPragma("user_version", to: "7")
            #expect(try db.pragma("main.user_version") == .integer(7))
        }
    }

    @Test func databaseFileIsCreatedReadableOnlyByItsOwner() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/private.sqlite"
            let db = try openWithEntries(dir, name: "private.sqlite")
            try db.execute("INSERT INTO entries(tag) VALUES (?)", ["x"])
            for file in [path, path + "-wal"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: file)
                #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(file)")
            }
        }
    }

    @Test func dataSurvivesCloseAndReopen() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            try db.execute("INSERT INTO entries(tag, value) VALUES (?, ?)", ["kept", 135])
            db.close()
            db.close()  // idempotent
            let reopened = try Connection(path: dir + "/test.sqlite", options: Connection.Options(access: .readWrite))
            #expect(try reopened.scalar("SELECT value FROM entries WHERE tag = ?", ["kept"], as: Int.self) == 135)
            #expect(try reopened.pragma("journal_mode") == .text("wal"))
        }
    }

    @Test func readOnlyConnectionRefusesWrites() throws {
        try withTemporaryDirectory { dir in
            let writer = try openWithEntries(dir)
            try writer.execute("INSERT INTO entries(tag) VALUES (?)", ["x"])
            let reader = try Connection(path: dir + "/test.sqlite", options: .readOnly)
            #expect(try reader.scalar("SELECT count(*) FROM entries", as: Int.self) == 1)
            let error = #expect(throws: SQLiteError.self) {
                try reader.execute("INSERT INTO entries(tag) VALUES (?)", ["y"])
            }
            #expect(error?.code == SQLiteError.Code.readOnly)
        }
    }

    @Test func openingAMissingFileWithoutCreateFailsClearly() throws {
        try withTemporaryDirectory { dir in
            let error = #expect(throws: SQLiteError.self) {
                _ = try Connection(path: dir + "/absent.sqlite", options: Connection.Options(access: .readWrite))
            }
            #expect(error?.code == SQLiteError.Code.cantOpen)
            #expect(error?.message.contains("absent.sqlite") == true)
        }
    }
}
