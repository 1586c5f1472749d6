import Crypto
import Foundation
import HTJSON
import HyponaTrackCore
import SQLite
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The chain is keyed (HMAC-SHA256 under the audit key), so re-hashing edited rows without the
/// key is caught, and a checkpoint catches what a key holder could rewrite.
@Suite struct AuditKeyedChainTests {
    let startMs = epochMilliseconds(TestDatabase.now)
    static let otherKey = try! AuditKey(bytes: [UInt8](repeating: 0x17, count: 32), source: "another key")

    private func appendRows(_ t: TestDatabase, count: Int) throws {
        try t.write { db in
            for i in 1...count {
                try AuditLog.append(db, at: startMs + Int64(i), actor: "staff:nurse", action: .labAdd,
                                    subject: i.isMultiple(of: 4) ? nil : "HT-\(i % 3)", details: ["sodium": .int(130 + i % 7)])
            }
        }
    }

    /// Runs `sql` on a raw connection after dropping the append-only triggers.
    private func tamper(_ t: TestDatabase, _ sql: String) throws {
        let raw = try Connection(path: t.path)
        defer { raw.close() }
        try raw.execute("DROP TRIGGER IF EXISTS audit_log_no_update; DROP TRIGGER IF EXISTS audit_log_no_delete;")
        try raw.execute(sql)
    }

    /// The checkpoint of row `seq` as it is now.
    private func checkpoint(_ t: TestDatabase, seq: Int64) throws -> AuditCheckpoint {
        let row = try #require(try AuditLog.list(t.db, limit: 1, afterSeq: seq - 1).first)
        return AuditCheckpoint(seq: row.seq, hash: row.hash)
    }

    /// Every row's `prev_hash` and `hash` recomputed with `scheme`, as a forger would.
    private func rehashAll(_ t: TestDatabase, _ scheme: AuditChain.Scheme) throws {
        var previous = AuditChain.genesisHash, sql = ""
        for entry in try AuditRepository.entries(t.db, after: 0, subject: nil, limit: 10_000) {
            let hash = AuditChain.hash(scheme, of: entry, prevHash: previous)
            sql += "UPDATE audit_log SET prev_hash = '\(previous)', hash = '\(hash)' WHERE seq = \(entry.seq);\n"
            previous = hash
        }
        try tamper(t, sql)
    }

    @Test func theStoredHashIsTheDocumentedHMACOfTheCanonicalText() throws {
        let t = try TestDatabase()
        let entry = try t.write { db in
            try AuditLog.append(db, at: 1_773_043_200_123, actor: "staff:anna", action: .labAdd, subject: "HT-1",
                                details: ["sodium": 131, "note": "a:b\nc"])
        }
        let text = "\(AuditChain.genesisHash)\n1\n1773043200123\n10:staff:anna\n7:lab.add\n4:HT-1\n30:{\"sodium\":131,\"note\":\"a:b\\nc\"}"
        #expect(entry.detailsText.utf8.count == 30)
        #expect(entry.hash == Crypto.hex(Crypto.hmacSHA256(key: [UInt8](repeating: 0x5a, count: 32), message: Array(text.utf8))))
        #expect(entry.hash != Crypto.hex(Crypto.sha256(Array(text.utf8))))
    }

    @Test func appendReturnsExactlyWhatItStored() throws {
        let t = try TestDatabase()
        try appendRows(t, count: 3)
        let appended = try t.write { db in
            try AuditLog.append(db, at: startMs + 9, actor: "system", action: .hookDisabled, subject: nil, details: ["reason": "410"])
        }
        #expect(try AuditLog.last(t.db) == appended)
        #expect(appended.seq == 4 && appended.subject == nil)
    }

    @Test func aConnectionWithoutTheKeyCannotAppend() throws {
        let t = try TestDatabase()
        let raw = try Connection(path: t.path)
        defer { raw.close() }
        #expect(throws: SQLiteError.self) {
            try raw.transaction { try AuditLog.append(raw, at: startMs, actor: "system", action: .staffAdd, subject: nil, details: [:]) }
        }
        #expect(try t.db.scalar("SELECT count(*) FROM audit_log", as: Int.self) == 0)
    }

    @Test func rowsRehashedWithPlainSHA256AreCaughtAtTheFirstRow() throws {
        let t = try TestDatabase()
        try appendRows(t, count: 12)
        try rehashAll(t, .legacySHA256)
        let result = try AuditLog.verify(t.db, key: .forTests)
        #expect(result.firstBrokenSeq == 1)
        #expect(result.reason?.contains("without the key") == true)
    }

    @Test func rowsRehashedUnderAnotherKeyAreCaughtAtTheFirstRow() throws {
        let t = try TestDatabase()
        try appendRows(t, count: 12)
        try rehashAll(t, .keyed(Self.otherKey))
        #expect(try AuditLog.verify(t.db, key: .forTests).firstBrokenSeq == 1)
        #expect(try AuditLog.verify(t.db, key: Self.otherKey).isIntact)
    }

    @Test func aMatchingCheckpointKeepsTheChainIntact() throws {
        let t = try TestDatabase()
        try appendRows(t, count: 10)
        let result = try AuditLog.verify(t.db, key: .forTests, checkpoint: try checkpoint(t, seq: 6))
        #expect(result.isIntact && result.checkpoint?.matches == true && result.rowsChecked == 10)
    }

    @Test func historyRewrittenByAKeyHolderFailsTheCheckpointOnly() throws {
        let t = try TestDatabase()
        try appendRows(t, count: 10)
        let noted = try checkpoint(t, seq: 8)
        try tamper(t, "UPDATE audit_log SET details = '{\"sodium\":140}' WHERE seq = 3")
        try rehashAll(t, .keyed(.forTests))
        let result = try AuditLog.verify(t.db, key: .forTests, checkpoint: noted)
        #expect(result.chainIntact && !result.isIntact)
        #expect(result.checkpoint?.reason?.contains("rewritten") == true)
    }

    @Test(arguments: [("DELETE FROM audit_log WHERE seq > 7", nil, "cut off"),
                      ("UPDATE audit_log SET actor = 'staff:mallory' WHERE seq = 4", 4, "broken at row 4")] as [(String, Int64?, String)])
    func aTrailCutOffOrBrokenBeforeTheCheckpointFailsIt(_ sql: String, brokenAt: Int64?, reason: String) throws {
        let t = try TestDatabase()
        try appendRows(t, count: 10)
        let head = try checkpoint(t, seq: 10)
        try tamper(t, sql)
        let result = try AuditLog.verify(t.db, key: .forTests, checkpoint: head)
        #expect(result.firstBrokenSeq == brokenAt && !result.isIntact)
        #expect(result.checkpoint?.matches == false && result.checkpoint?.reason?.contains(reason) == true)
    }

    @Test func checkpointsParseOnlyTheSeqColonHexForm() {
        let hex = String(repeating: "aB", count: 32)
        #expect(AuditCheckpoint("12:\(hex)") == AuditCheckpoint(seq: 12, hash: hex.lowercased()))
        #expect(AuditCheckpoint("12:\(hex)")?.description == "12:\(hex.lowercased())")
        for bad in ["0:\(hex)", "012:\(hex)", "-1:\(hex)", "12:\(hex.dropLast())", "12:\(hex)0", "12\(hex)", "12:\(hex):1",
                    "1234567890123456789:\(hex)", "+1:\(hex)", "1:\(String(repeating: "g", count: 64))"] {
            #expect(AuditCheckpoint(bad) == nil, "\(bad)")
        }
    }

    @Test func theDailyCheckpointIsMadeOncePerStudyDayAndQueuedToItsSubscribers() throws {
        let store = try DaemonDatabase()
        let hook = HookConfiguration(name: "anchor", kind: .command(path: "/bin/true", args: [], timeoutSeconds: 5),
                                     events: [.auditCheckpoint])
        let checkpoints = AuditCheckpoints(hooks: [hook], zone: ZoneRules(identifier: "Europe/Berlin")!)
        let evening = TestDatabase.now + 13 * 3600        // 22:00 local (UTC+1)
        let first = try store.database.write { db in try checkpoints.dailyIfDue(db, now: evening) }
        let again = try store.database.write { db in try checkpoints.dailyIfDue(db, now: evening + 1800) }
        let nextDay = try store.database.write { db in try checkpoints.dailyIfDue(db, now: evening + 7200) }   // 00:00 local
        #expect(first != nil && again == nil && nextDay != nil)
        let events = try store.database.read { db in
            try db.query("SELECT body FROM hook_outbox WHERE type = 'audit.checkpoint' ORDER BY rowid").map { try $0.string(0) }
        }
        #expect(events.count == 2)
        #expect(events.first?.contains("\"checkpoint\":\"\(first!.description)\"") == true)
        let verified = try store.database.longRead { db in try AuditLog.verify(db, key: .forTests, checkpoint: nextDay) }
        #expect(verified.isIntact)
    }
}
