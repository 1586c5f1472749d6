import Foundation
import Testing
import Crypto
import HTJSON

/// The audit trail is append-only in the database and tamper-evident on disk.
@Suite struct AuditTamperTests {
    func sqlite(_ db: String, _ sql: String) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [db, sql]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (ChildExit.wait(p), text)
    }

    @Test func editingTheFileIsCaughtAndNamesTheFirstBrokenRow() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "AUD-1")
        try d.request(.put, "/v1/me/days/\(Study.date(-1))", token: token, body: ["weightMorningKg": 80.1])
        #expect(try d.request(.get, "/v1/audit/verify", token: d.adminToken)["intact"] == true)
        d.stop()
        let db = d.dataDir.appendingPathComponent("hyponatrack.sqlite").path
        // The database itself refuses changes to the trail.
        let update = try sqlite(db, "UPDATE audit_log SET actor = 'someone' WHERE seq = 3;")
        #expect(update.0 != 0 && update.1.contains("append-only"), "\(update)")
        let delete = try sqlite(db, "DELETE FROM audit_log WHERE seq = 2;")
        #expect(delete.0 != 0)
        // Someone with file access drops the triggers and rewrites a row.
        let tamper = try sqlite(db, """
            DROP TRIGGER IF EXISTS audit_log_no_update; DROP TRIGGER IF EXISTS audit_log_no_delete;
            SELECT name FROM sqlite_master WHERE type = 'trigger';
            """)
        #expect(tamper.0 == 0, "\(tamper.1)")
        let triggers = try listTriggers(db)
        for t in triggers { _ = try sqlite(db, "DROP TRIGGER \(t);") }
        let edit = try sqlite(db, "UPDATE audit_log SET details = replace(details, '80.1', '70.1') WHERE action = 'day.submit';")
        #expect(edit.0 == 0, "\(edit.1)")
        try d.start()
        let verify = try d.request(.get, "/v1/audit/verify", token: d.adminToken)
        #expect(verify["intact"] == false)
        let broken = try d.request(.get, "/v1/audit?limit=1000", token: d.adminToken)
        guard case .number(let seq)? = verify["firstBrokenSeq"] else { Issue.record("\(verify.text)"); return }
        #expect(broken.text.contains("\"seq\":\(Int(seq)),"))
        let cli = try CLIRunner.run(["audit", "verify"], server: d.baseURL, token: d.adminToken)
        #expect(cli.status == 1)
        #expect(cli.stderr.contains("BROKEN at row \(Int(seq))"))
    }

    func listTriggers(_ db: String) throws -> [String] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [db, "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_log';"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ChildExit.wait(p)
        return text.split(separator: "\n").map(String.init)
    }
}

/// The issue's rewrite: triggers dropped, a lab value edited, a revocation row deleted and every
/// row re-hashed — with plain SHA-256 (the old formula) or under a key that is not the daemon's.
/// Without the key the rewrite cannot be made to verify.
@Suite struct AuditRewriteTests {
    func setUp() throws -> (TestDaemon, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("htrw-\(UUID().uuidString)")
        let d = try TestDaemon(dataDir: root.appendingPathComponent("data"))
        let token = try Study.enrollAndActivate(d, "RW-1")
        try d.request(.put, "/v1/me/days/\(Study.date(-1))", token: token, body: ["weightMorningKg": 80.1])
        #expect(try d.request(.post, "/v1/patients/RW-1/labs", token: d.adminToken, body: ["sodium": 128]).status == 201)
        _ = try Study.staff(d, "leaver", role: "nurse")
        #expect(try d.request(.post, "/v1/staff/leaver/revocation", token: d.adminToken).status == 200)
        #expect(try d.request(.get, "/v1/audit/verify", token: d.adminToken)["intact"] == true)
        return (d, root)
    }

    /// Sodium 128 becomes 138 in the lab table and in its audit row; the revocation row goes and
    /// the rows after it move up one, so seq has no gap.
    func rewrite(_ trail: AuditTrailFile) throws {
        let revocation = try #require(try trail.rows().first { $0.action == "staff.revoke" })
        try trail.tamper("""
            UPDATE lab_values SET sodium = 138 WHERE sodium = 128;
            UPDATE audit_log SET details = replace(details, '128', '138') WHERE action = 'lab.add';
            DELETE FROM audit_log WHERE seq = \(revocation.seq);
            UPDATE audit_log SET seq = seq - 1 WHERE seq > \(revocation.seq);
            """)
    }

    func expectCaught(_ d: TestDaemon) throws {
        let verify = try d.request(.get, "/v1/audit/verify", token: d.adminToken)
        #expect(verify["intact"] == false && verify["firstBrokenSeq"] == 1, "\(verify.text)")
        let cli = try CLIRunner.run(["audit", "verify"], server: d.baseURL, token: d.adminToken)
        #expect(cli.status == 1 && cli.stderr.contains("BROKEN at row 1"), "\(cli.stderr)")
    }

    @Test func rowsRewrittenAndRehashedWithPlainSHA256OrAnotherKeyFailVerification() throws {
        let (d, root) = try setUp()
        defer { try? FileManager.default.removeItem(at: root) }
        let trail = AuditTrailFile(dataDir: d.dataDir)
        d.stop()
        try rewrite(trail)
        for scheme in [AuditTrailFile.Scheme.sha256, .hmac(key: try Crypto.randomBytes(32))] {
            try trail.rehash(scheme)
            // The forged chain is consistent in itself: only the daemon's key tells it apart.
            var previous = String(repeating: "0", count: 64)
            for row in try trail.rows() {
                #expect(row.prevHash == previous && AuditTrailFile.hash(scheme, prevHash: previous, row) == row.hash)
                previous = row.hash
            }
            try d.start()
            try expectCaught(d)
            d.stop()
        }
    }

    /// `scripts/audit-verify`, written from the documented formula, agrees with the daemon on a
    /// stopped database: intact with the checkpoint, then the rewrites are caught.
    @Test func theStandaloneVerifierScriptAgreesWithTheDaemon() throws {
        let (d, root) = try setUp()
        defer { try? FileManager.default.removeItem(at: root) }
        guard case .string(let checkpoint)? = try d.request(.post, "/v1/audit/checkpoints", token: d.adminToken)["checkpoint"] else {
            Issue.record("no checkpoint"); return
        }
        d.stop()
        let trail = AuditTrailFile(dataDir: d.dataDir)
        let keyFile = root.appendingPathComponent("audit-key").path
        func script(_ extra: [String] = []) throws -> CLIRunner.Result {
            try CLIRunner.run("/usr/bin/python3", [Repo.root.appendingPathComponent("scripts/audit-verify").path, trail.path, keyFile] + extra)
        }
        let intact = try script([checkpoint])
        let head = try #require(try trail.rows().last)
        #expect(intact.status == 0 && intact.stdout.contains("head \(head.seq):\(head.hash)"), "\(intact.stderr)")
        try trail.tamper("UPDATE audit_log SET details = replace(details, '128', '138') WHERE action = 'lab.add';")
        try trail.rehash(.hmac(key: try AuditTrailFile.key(file: keyFile)))
        #expect(try script().status == 0)
        let anchored = try script([checkpoint])
        #expect(anchored.status == 1 && anchored.stderr.contains("does NOT match checkpoint"), "\(anchored.stderr)")
        try trail.rehash(.sha256)
        let unkeyed = try script()
        #expect(unkeyed.status == 1 && unkeyed.stderr.contains("BROKEN at row 1"), "\(unkeyed.stderr)")
    }
}
