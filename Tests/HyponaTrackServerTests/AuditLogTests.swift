import HTJSON
import SQLite
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

@Suite struct AuditLogTests {
    let startMs = epochMilliseconds(TestDatabase.now)

    /// Appends `count` varied rows in one transaction.
    private func appendRows(_ t: TestDatabase, count: Int) throws {
        try t.write { db in
            for i in 1...count {
                try AuditLog.append(db, at: startMs + Int64(i), actor: i.isMultiple(of: 3) ? "system" : "staff:nurse\(i % 4)",
                                    action: i.isMultiple(of: 2) ? .daySubmit : .labAdd,
                                    subject: i.isMultiple(of: 5) ? nil : "HT-\(i % 7)",
                                    details: ["index": .int(i), "note": "line\nbreak: \"quoted\"", "before": nil])
            }
        }
    }

    /// Runs `sql` on a second, raw connection after dropping the append-only triggers, as
    /// someone editing the file behind the daemon's back would.
    private func tamper(_ t: TestDatabase, _ sql: String) throws {
        let raw = try Connection(path: t.path)
        defer { raw.close() }
        try raw.execute("DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete;")
        try raw.execute(sql)
    }

    @Test func hundredAppendedRowsVerify() throws {
        let t = try TestDatabase()
        try appendRows(t, count: 100)
        let result = try AuditLog.verify(t.db, key: .forTests)
        #expect(result.isIntact)
        #expect(result.rowsChecked == 100)
        #expect(result.firstBrokenSeq == nil && result.reason == nil)
        #expect(result.lastSeq == 100)
        #expect(result.lastHash == (try AuditLog.last(t.db))?.hash)
    }

    private struct Refused: Error {}

    private func append(_ db: Connection, _ i: Int) throws -> AuditEntry {
        try AuditLog.append(db, at: startMs + Int64(i), actor: "system", action: .labAdd, subject: "HT-\(i)", details: ["i": .int(i)])
    }

    /// The writer's remembered chain head (`AuditHead`) must not outlive a rolled-back row:
    /// the next row chains to the last row that stayed, whether the whole transaction, a
    /// savepoint (a group-commit job) or SQLite itself rolled it back.
    @Test func theRememberedHeadIsForgottenWhenItsRowIsRolledBack() throws {
        let t = try TestDatabase()
        t.db.attach(AuditHead())
        let first = try t.write { try append($0, 1) }
        #expect(throws: Refused.self) { try t.write { db in _ = try append(db, 2); throw Refused() } }
        let afterTransaction = try t.write { try append($0, 3) }
        #expect(afterTransaction.seq == 2 && afterTransaction.prevHash == first.hash)

        let (kept, afterSavepoint) = try t.write { db -> (AuditEntry, AuditEntry) in
            let kept = try append(db, 4)
            #expect(throws: Refused.self) { try db.transaction { _ = try append(db, 5); throw Refused() } }
            return (kept, try append(db, 6))
        }
        #expect(afterSavepoint.seq == kept.seq + 1 && afterSavepoint.prevHash == kept.hash)

        try t.db.execute("BEGIN IMMEDIATE")
        _ = try append(t.db, 7)
        try t.db.execute("ROLLBACK")
        let afterRawRollback = try t.write { try append($0, 8) }
        #expect(afterRawRollback.seq == afterSavepoint.seq + 1 && afterRawRollback.prevHash == afterSavepoint.hash)

        let result = try AuditLog.verify(t.db, key: .forTests)
        #expect(result.isIntact && result.rowsChecked == 5)
    }

    /// A row appended by another connection meanwhile (the daemon should be the only writer)
    /// makes the next append fail on the taken seq, not fork the chain; the one after it
    /// reads the head again.
    @Test func aRowAppendedElsewhereIsNotOverwrittenButReadAgain() throws {
        let t = try TestDatabase()
        t.db.attach(AuditHead())
        _ = try t.write { try append($0, 1) }
        let other = try Connection(path: t.path)
        defer { other.close() }
        other.attach(AuditKey.forTests)
        let elsewhere = try other.transaction { try append(other, 2) }
        #expect(throws: SQLiteError.self) { try t.write { try append($0, 3) } }
        let next = try t.write { try append($0, 4) }
        #expect(next.seq == elsewhere.seq + 1 && next.prevHash == elsewhere.hash)
        #expect(try AuditLog.verify(t.db, key: .forTests).isIntact)
    }

    @Test func emptyTrailVerifies() throws {
        let t = try TestDatabase()
        let result = try AuditLog.verify(t.db, key: .forTests)
        #expect(result.isIntact && result.rowsChecked == 0 && result.lastSeq == nil)
    }

    @Test func rowsAreChainedFromTheGenesisHash() throws {
        let t = try TestDatabase()
        let first = try t.write { try AuditLog.append($0, at: startMs, actor: "system", action: .staffAdd, subject: "alice", details: ["role": "nurse"]) }
        let second = try t.write { try AuditLog.append($0, at: startMs + 1, actor: "staff:alice", action: .patientEnroll, subject: "HT-1", details: [:]) }
        #expect(first.seq == 1 && first.prevHash == String(repeating: "0", count: 64))
        #expect(second.seq == 2 && second.prevHash == first.hash)
        #expect(first.detailsText == #"{"role":"nurse"}"#)
        #expect(first.hash.count == 64 && first.hash != second.hash)
    }

    @Test func databaseRefusesUpdateAndDelete() throws {
        let t = try TestDatabase()
        try appendRows(t, count: 3)
        for sql in ["UPDATE audit_log SET actor = 'staff:mallory' WHERE seq = 2", "DELETE FROM audit_log WHERE seq = 3"] {
            do {
                try t.db.execute(sql)
                Issue.record("\(sql) was not refused")
            } catch let error as SQLiteError {
                #expect(error.message.contains("audit_log is append-only"), "\(error)")
            }
        }
        #expect(try AuditLog.verify(t.db, key: .forTests).isIntact)
        #expect(try t.db.scalar("SELECT count(*) FROM audit_log", as: Int.self) == 3)
    }

    @Test func editedDetailsAreCaughtAtThatRow() throws {
        let t = try TestDatabase()
        try appendRows(t, count: 20)
        try tamper(t, "UPDATE audit_log SET details = replace(details, '\"index\":7', '\"index\":8') WHERE seq = 7")
        let result = try AuditLog.verify(t.db, key: .forTests)
        #expect(result.firstBrokenSeq == 7)
        #expect(result.rowsChecked == 7)
        #expect(result.reason?.contains("modified") == true)
    }

    @Test func changedActorIsCaughtAtThatRow() throws {
        let t = try TestDatabase()
        try appendRows(t, count: 20)
        try tamper(t, "UPDATE audit_log SET actor = 'staff:someone-else' WHERE seq = 12")
        #expect(try AuditLog.verify(t.db, key: .forTests).firstBrokenSeq == 12)
    }

    @Test func deletedMiddleRowIsCaughtAtTheRowAfterTheGap() throws {
        let t = try TestDatabase()
        try appendRows(t, count: 20)
        try tamper(t, "DELETE FROM audit_log WHERE seq = 10")
        let result = try AuditLog.verify(t.db, key: .forTests)
        #expect(result.firstBrokenSeq == 11)
        #expect(result.reason?.contains("missing") == true)
    }

    @Test func deletedAndRenumberedRowIsCaughtByThePrevHash() throws {
        let t = try TestDatabase()
        try appendRows(t, count: 20)
        // Close the gap so the seq numbers look continuous again.
        try tamper(t, "DELETE FROM audit_log WHERE seq = 10; UPDATE audit_log SET seq = seq - 1 WHERE seq > 10;")
        let result = try AuditLog.verify(t.db, key: .forTests)
        #expect(result.firstBrokenSeq == 10)
    }

    @Test func swappedRowsAreCaught() throws {
        let t = try TestDatabase()
        try appendRows(t, count: 20)
        try tamper(t, """
            UPDATE audit_log SET seq = -5 WHERE seq = 5;
            UPDATE audit_log SET seq = 5 WHERE seq = 6;
            UPDATE audit_log SET seq = 6 WHERE seq = -5;
            """)
        #expect(try AuditLog.verify(t.db, key: .forTests).firstBrokenSeq == 5)
    }

    @Test func strayRowBeforeTheFirstIsCaught() throws {
        let t = try TestDatabase()
        try appendRows(t, count: 3)
        try tamper(t, "INSERT INTO audit_log SELECT 0, at, actor, action, subject, details, prev_hash, hash FROM audit_log WHERE seq = 1")
        #expect(try AuditLog.verify(t.db, key: .forTests).firstBrokenSeq == 0)
    }

    @Test func verifyStreamsAThousandRowsAndStillNamesALateEdit() throws {
        let t = try TestDatabase()
        try appendRows(t, count: 1200)
        try tamper(t, "UPDATE audit_log SET at = at + 1 WHERE seq = 1103")
        let result = try AuditLog.verify(t.db, key: .forTests)
        #expect(result.firstBrokenSeq == 1103 && result.rowsChecked == 1103)
    }

    @Test func listPagesAndFiltersBySubject() throws {
        let t = try TestDatabase()
        try appendRows(t, count: 30)
        let firstPage = try AuditLog.list(t.db, limit: 10)
        #expect(firstPage.map(\.seq) == Array(1...10))
        let secondPage = try AuditLog.list(t.db, limit: 10, afterSeq: 10)
        #expect(secondPage.map(\.seq) == Array(11...20))
        let ht3 = try AuditLog.list(t.db, limit: 100, subject: "HT-3")
        #expect(!ht3.isEmpty && ht3.allSatisfy { $0.subject == "HT-3" })
        #expect(ht3.map(\.seq) == ht3.map(\.seq).sorted())
        let entry = try #require(firstPage.first)
        #expect(entry.details == ["index": 1, "note": "line\nbreak: \"quoted\"", "before": nil])
        guard case .object(let json) = AdminJSON.entry.encode(entry) else {
            Issue.record("entry JSON is not an object")
            return
        }
        #expect(json.keys == ["seq", "at", "actor", "action", "subject", "details", "hash"])
        #expect(json["at"] == .string(iso8601UTC(milliseconds: startMs + 1)))
    }
}
