import Foundation
import SQLite
import Testing

@Suite struct BackupTests {
    @Test func backupCopiesTheSameRows() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            try db.transaction {
                for index in 0..<300 {
                    try db.execute("INSERT INTO entries(tag, value) VALUES (?, ?)", ["t\(index)", index])
                }
            }
            try db.backup(to: dir + "/copy.sqlite")
            #expect(!FileManager.default.fileExists(atPath: dir + "/copy.sqlite.partial"))
            let copy = try Connection(path: dir + "/copy.sqlite", options: .readOnly)
            let sql = "SELECT id, tag, value FROM entries ORDER BY id"
            #expect(try copy.query(sql).map(\.values) == db.query(sql).map(\.values))
            let mode = try FileManager.default.attributesOfItem(atPath: dir + "/copy.sqlite")[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    /// A copy of a WAL database used to say WAL in its header: checking it read-only left
    /// `-wal` and `-shm` beside every backup, which pruning by `*.sqlite` never removed.
    @Test func aBackupIsOneSelfContainedFileThatOpeningItLeavesAlone() throws {
        try withTemporaryDirectory { dir in
            let db = try openWithEntries(dir)
            try db.execute("INSERT INTO entries(tag, value) VALUES (?, ?)", ["t", 1])
            let path = dir + "/copy.sqlite"
            try db.backup(to: path)
            let header = try #require(FileManager.default.contents(atPath: path))
            #expect(Array(header[18...19]) == [1, 1], "file format bytes: 1, 1 is a rollback journal, 2, 2 is WAL")
            let copy = try Connection(path: path, options: .readOnly)
            #expect(try copy.scalar("SELECT count(*) FROM entries", as: Int.self) == 1)
            copy.close()
            for suffix in ["-wal", "-shm", "-journal"] {
                #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(suffix) left beside the backup")
            }
            let reopened = try Connection(path: path)
            #expect(try reopened.scalar("PRAGMA journal_mode", as: String.self) == "wal", "a restored copy opens in WAL again")
        }
    }

    @Test func backupIsAConsistentSnapshotWhileAWriterIsActive() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/live.sqlite"
            let setup = try openWithEntries(dir, name: "live.sqlite")
            try setup.transaction {
                for index in 0..<500 {
                    try setup.execute("INSERT INTO entries(tag, value) VALUES (?, ?)", ["seed\(index)", index])
                }
            }
            setup.close()

            let writer = try GroupCommitWriter(path: path)
            let stop = Locked(false)
            let written = Locked(0)
            let writing = startThread {
                var index = 0
                while !stop.current {
                    _ = try? writer.write { db in
                        try db.execute("INSERT INTO entries(tag, value) VALUES (?, ?)", ["live\(index)", index])
                    }
                    index += 1
                    written.withLock { $0 += 1 }
                }
            }
            #expect(waitUntil { written.current >= 20 })

            let source = try Connection(path: path, options: .readOnly)
            try source.backup(to: dir + "/backup.sqlite")
            let writtenDuringBackup = written.current
            #expect(waitUntil { written.current >= writtenDuringBackup + 20 })
            stop.withLock { $0 = true }
            writing.wait()
            writer.close()

            let copy = try Connection(path: dir + "/backup.sqlite", options: .readOnly)
            #expect(try copy.pragma("integrity_check") == .text("ok"))
            let count = try #require(try copy.scalar("SELECT count(*) FROM entries", as: Int.self))
            // A snapshot: ids are contiguous (every commit is wholly in or out) ...
            #expect(try copy.scalar("SELECT max(id) FROM entries", as: Int.self) == count)
            #expect(count >= 520)
            // ... the rows equal the source's, and the writer went on after the backup.
            let sql = "SELECT id, tag, value FROM entries WHERE id <= ? ORDER BY id"
            #expect(try copy.query(sql, [count]).map(\.values) == source.query(sql, [count]).map(\.values))
            #expect(try source.scalar("SELECT count(*) FROM entries", as: Int.self) ?? 0 > count)
        }
    }
}
