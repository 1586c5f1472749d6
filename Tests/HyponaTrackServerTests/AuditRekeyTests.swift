import Foundation
import HTJSON
import SQLite
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Migration `v5_audit_hmac`: an older database whose chain is plain SHA-256 is verified and
/// re-keyed once, in one transaction, and the re-keying is in the trail; a broken old chain is
/// left exactly as it was; a database keyed with one key refuses another.
@Suite struct AuditRekeyTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("htrekey-\(UUID().uuidString)")
    var file: String { directory.appendingPathComponent("hyponatrack.sqlite").path }
    static let otherKey = try! AuditKey(bytes: [UInt8](repeating: 0x17, count: 32), source: "another key")

    /// A database as release 4 left it: migrations up to `v4_alert_log` and `rows` audit rows
    /// chained with the old unkeyed formula (`lab.add`, or the action `actions` gives for a
    /// seq). Returns the old head's hash.
    @discardableResult
    func releaseFourDatabase(rows: Int, actions: [Int64: String] = [:]) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let db = try Connection(path: file)
        defer { db.close() }
        try Schema.migrator(through: "v4_alert_log").migrate(db)
        var previous = AuditChain.genesisHash
        try db.transaction {
            for seq in Int64(1)...Int64(rows) {
                let details = JSONSerializer.string(["index": .int(Int(seq)), "text": "ünïcode\nline"])
                let subject: String? = seq.isMultiple(of: 3) ? nil : "HT-\(seq % 5)"
                let action = actions[seq] ?? "lab.add"
                let hash = AuditChain.hash(.legacySHA256, prevHash: previous, seq: seq, at: 1_700_000_000_000 + seq,
                                           actor: "staff:nurse", action: action, subject: subject, details: details)
                try AuditRepository.insert(db, seq: seq, at: 1_700_000_000_000 + seq, actor: "staff:nurse", action: action,
                                           subject: subject, details: details, prevHash: previous, hash: hash)
                previous = hash
            }
        }
        return previous
    }

    func raw<T>(_ body: (Connection) throws -> T) throws -> T {
        let db = try Connection(path: file)
        defer { db.close() }
        return try body(db)
    }

    @Test func anOldUnkeyedChainIsRekeyedOnceAndTheRekeyingIsAudited() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let oldHead = try releaseFourDatabase(rows: 1234)
        let database = try Database(directory: directory)
        let verification = try database.longRead { db in try AuditLog.verify(db, key: .forTests) }
        #expect(verification.isIntact && verification.rowsChecked == 1235)
        let rekey = try #require(try database.read { db in try AuditLog.last(db) })
        #expect(rekey.action == "audit.rekey" && rekey.actor == "system" && rekey.seq == 1235)
        #expect(rekey.details == ["rows": 1234, "oldHead": .string("1234:\(oldHead)")])
        #expect(try database.read { db in try db.scalar("SELECT rows_rekeyed FROM audit_key", as: Int.self) } == 1234)
        // The content is untouched; only the hashes changed.
        let first = try #require(try database.read { db in try AuditLog.list(db, limit: 1) }.first)
        #expect(first.detailsText == #"{"index":1,"text":"ünïcode\nline"}"# && first.prevHash == AuditChain.genesisHash)
        // The append-only triggers are back.
        #expect(throws: SQLiteError.self) { try raw { db in try db.execute("UPDATE audit_log SET actor = 'x' WHERE seq = 1") } }
        database.close()
        let reopened = try Database(directory: directory)
        defer { reopened.close() }
        #expect(try reopened.read { db in try AuditLog.last(db) }?.seq == 1235)
    }

    @Test func aBrokenOldChainIsNotRekeyedAndTheDatabaseStaysAsReleaseFourLeftIt() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try releaseFourDatabase(rows: 40)
        try raw { db in try db.execute("DROP TRIGGER audit_log_no_update; UPDATE audit_log SET details = '{}' WHERE seq = 17") }
        let before = try raw { db in try db.query("SELECT seq, hash FROM audit_log ORDER BY seq").map { try $0.string("hash") } }
        var message = ""
        do { _ = try Database(directory: directory) } catch { message = "\(error)" }
        #expect(message.contains("v5_audit_hmac") && message.contains("does not verify") && message.contains("row 17"), "\(message)")
        let after = try raw { db in try db.query("SELECT seq, hash FROM audit_log ORDER BY seq").map { try $0.string("hash") } }
        #expect(after == before)
        let applied = try raw { db in try Schema.migrator().appliedMigrations(in: db) }
        #expect(applied.last == "v4_alert_log")
        #expect(try raw { db in try AuditLog.verify(db, scheme: .legacySHA256).firstBrokenSeq } == 17)
    }

    @Test func anUnkeyedChainThatHoldsAnAuditRekeyRowIsNotRekeyedAgain() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Verifies under the old formula, but releases before v5 never wrote audit.rekey.
        try releaseFourDatabase(rows: 30, actions: [12: "audit.rekey"])
        let before = try raw { db in try db.query("SELECT hash FROM audit_log ORDER BY seq").map { try $0.string("hash") } }
        var message = ""
        do { _ = try Database(directory: directory) } catch { message = "\(error)" }
        #expect(message.contains("v5_audit_hmac") && message.contains("row 12 is an audit.rekey"), "\(message)")
        #expect(try raw { db in try db.query("SELECT hash FROM audit_log ORDER BY seq").map { try $0.string("hash") } } == before)
        #expect(try raw { db in try Schema.migrator().appliedMigrations(in: db) }.last == "v4_alert_log")
    }

    /// The reviewer's downgrade: rows edited, the chain re-hashed with plain SHA-256, the key
    /// record and v5's migration record deleted. The later migrations are still recorded, so
    /// the open is refused as a gap and v5 never runs again.
    @Test func aKeyedChainTurnedBackIntoTheUnkeyedFormIsRefusedAndNotRekeyed() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(directory: directory)
        try database.write { db in
            for i in 0..<5 { try AuditLog.append(db, at: 1_000 + Int64(i), actor: "staff:nurse", action: .staffAdd, subject: nil, details: ["i": .int(i)]) }
        }
        database.close()
        try raw { db in
            try db.execute("DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete")
            try db.execute("UPDATE audit_log SET actor = 'staff:mallory' WHERE seq = 2; DELETE FROM audit_log WHERE seq = 5")
            var previous = AuditChain.genesisHash
            for entry in try AuditRepository.entries(db, after: 0, subject: nil, limit: 100) {
                let hash = AuditChain.hash(.legacySHA256, of: entry, prevHash: previous)
                try db.execute("UPDATE audit_log SET prev_hash = ?, hash = ? WHERE seq = ?", [previous, hash, entry.seq])
                previous = hash
            }
            try db.execute("DROP TABLE audit_key; DELETE FROM schema_migrations WHERE name = 'v5_audit_hmac'")
        }
        #expect(try raw { db in try AuditLog.verify(db, scheme: .legacySHA256).chainIntact })
        let before = try raw { db in try db.query("SELECT hash FROM audit_log ORDER BY seq").map { try $0.string("hash") } }

        let error = #expect(throws: MigrationError.self) { _ = try Database(directory: directory) }
        #expect(error?.kind == .missingAppliedMigrations && error?.migrations == ["v5_audit_hmac"], "\(String(describing: error))")
        #expect(try raw { db in try db.query("SELECT hash FROM audit_log ORDER BY seq").map { try $0.string("hash") } } == before)
        #expect(try raw { db in try db.scalar("SELECT count(*) FROM audit_log WHERE action = 'audit.rekey'", as: Int.self) } == 0)
        #expect(try raw { db in try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'audit_key'", as: Int.self) } == 0)
    }

    @Test func aNewDatabaseRecordsItsKeyWithoutARekeyRow() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(directory: directory)
        defer { database.close() }
        #expect(try database.read { db in try db.scalar("SELECT fingerprint FROM audit_key", as: String.self) } == AuditKey.forTests.fingerprint)
        #expect(try database.read { db in try db.scalar("SELECT count(*) FROM audit_log", as: Int.self) } == 0)
    }

    @Test func anotherKeyIsRefusedBeforeAnythingIsWritten() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(directory: directory)
        try database.write { db in try AuditLog.append(db, at: 1, actor: "system", action: .staffAdd, subject: nil, details: [:]) }
        database.close()
        var message = ""
        do { _ = try Database(directory: directory, auditKey: Self.otherKey) } catch { message = "\(error)" }
        #expect(message.contains("is not the audit key this database's trail is keyed with"), "\(message)")
        #expect(message.contains(AuditKey.forTests.fingerprint) && message.contains(Self.otherKey.fingerprint))
        #expect(try raw { db in try db.scalar("SELECT count(*) FROM audit_log", as: Int.self) } == 1)
    }
}
