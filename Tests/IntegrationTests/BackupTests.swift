import Foundation
import HTJSON
import Testing

/// Backups against the real daemon (docs/product.md, T): `backup`, `backup list`, `backup
/// verify` through the CLI; a `kill -9` in the middle of a backup leaves the previous good
/// backup and nothing `backup list` shows; a backup changed after it was written fails
/// `verify`; `/healthz` tells the last good backup's age.
@Suite(.serialized) struct BackupTests {
    let backups = FileManager.default.temporaryDirectory.appendingPathComponent("ht-backups-\(UUID().uuidString)")

    func daemon() throws -> (TestDaemon, ConfigDirectory) {
        // A week between scheduled backups: only the test's own run here.
        let dir = try ConfigDirectory(server: #"{"backup": {"directory": "\#(backups.path)", "everyMinutes": 10080}}"#)
        return (try TestDaemon(configFile: dir.serverFile), dir)
    }

    func cli(_ d: TestDaemon, _ args: [String]) throws -> CLIRunner.Result {
        try CLIRunner.run(args, server: d.baseURL, token: d.adminToken)
    }

    func listed(_ d: TestDaemon) throws -> [String] {
        let r = try cli(d, ["backup", "list", "--json"])
        guard r.status == 0, case .object(let o) = try JSONParser.parse(r.stdout), case .array(let items)? = o["backups"] else {
            throw TestFailure("backup list --json: \(r.status) \(r.stdout) \(r.stderr)")
        }
        return items.compactMap { if case .object(let b) = $0, case .string(let n)? = b["name"] { n } else { nil } }
    }

    @Test func aBackupIsListedVerifiedAndShownInHealthz() throws {
        let (d, _) = try daemon()
        defer { d.stop() }
        _ = try Study.enrollAndActivate(d, "BK-1")
        let made = try cli(d, ["backup"])
        #expect(made.status == 0, "\(made.stderr)")
        let path = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(path.hasPrefix(backups.path + "/hyponatrack-") && path.hasSuffix(".sqlite"), "\(path)")
        #expect(try listed(d) == [(path as NSString).lastPathComponent])
        let text = try cli(d, ["backup", "list"])
        #expect(text.stdout.contains("Backups in \(backups.path) (scheduled)") && text.stdout.contains("v"), "\(text.stdout)")
        let verified = try cli(d, ["backup", "verify", path])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        #expect(verified.stdout.contains("is good") && verified.stdout.contains("SHA-256 matches"), "\(verified.stdout)")
        let health = try d.request(.get, "/healthz")
        guard case .object(let backup)? = health["backup"] else { throw TestFailure("no backup in /healthz: \(health.text)") }
        #expect(backup["configured"] == .bool(true))
        if case .number(let age)? = backup["ageSeconds"] { #expect(age >= 0 && age < 60) } else { Issue.record("ageSeconds: \(health.text)") }
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aBackupChangedAfterItWasWrittenFailsVerify() throws {
        let (d, _) = try daemon()
        defer { d.stop() }
        let path = try cli(d, ["backup"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // Sixteen bytes in the middle of the file, as a failing disk would.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 16))
        try handle.close()
        let r = try cli(d, ["backup", "verify", (path as NSString).lastPathComponent])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("is NOT good") && r.stderr.contains("SHA-256 is not the one recorded"), "\(r.stderr)")
        let json = try cli(d, ["backup", "verify", path, "--json"])
        guard case .object(let o) = try JSONParser.parse(json.stdout) else { throw TestFailure(json.stdout) }
        #expect(o["ok"] == .bool(false) && o["checksumMatches"] == .bool(false))
        // Only files of the backup directory are checked.
        let outside = try cli(d, ["backup", "verify", d.dataDir.appendingPathComponent("hyponatrack.sqlite").path])
        #expect(outside.status == 1 && outside.stderr.contains("file"), "\(outside.stderr)")
    }

    @Test func killNineDuringABackupLeavesThePreviousGoodOneAndNothingListed() throws {
        let (d, _) = try daemon()
        defer { d.stop() }
        let first = (try cli(d, ["backup"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) as NSString).lastPathComponent
        // A large database makes the next backup take long enough to be caught in the middle.
        d.stop()
        try AuditTrailFile(dataDir: d.dataDir).sqlite([d.dataDir.appendingPathComponent("hyponatrack.sqlite").path], input: """
            CREATE TABLE filler (b BLOB);
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 25000) INSERT INTO filler SELECT randomblob(4000) FROM n;
            """)
        try d.start()
        let token = d.adminToken, port = d.port
        Thread.detachNewThread {
            _ = try? CLIRunner.run(["backup"], server: "http://127.0.0.1:\(port)", token: token)
        }
        let caught = poll(timeout: 30, every: 0.002) {
            let names = try FileManager.default.contentsOfDirectory(atPath: backups.path)
            return names.contains { $0.hasPrefix(".hyponatrack-") }
        }
        d.kill9()
        #expect(caught, "the backup's hidden file never appeared")
        let left = try FileManager.default.contentsOfDirectory(atPath: backups.path)
        #expect(left.contains { $0.hasPrefix(".hyponatrack-") }, "killed in the middle: \(left)")
        try d.start()
        #expect(try listed(d) == [first])
        let after = try FileManager.default.contentsOfDirectory(atPath: backups.path)
        #expect(after.allSatisfy { !$0.hasPrefix(".") }, "the start removes what the killed backup left: \(after)")
        #expect(try cli(d, ["backup", "verify", first]).status == 0)
    }
}
