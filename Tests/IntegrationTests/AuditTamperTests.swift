import Foundation
import Testing
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
