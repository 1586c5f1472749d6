import Foundation
import HTJSON
import Testing

/// Offline admin recovery (`hyponatrackd --config CFG --data-dir D --new-admin-token FILE`): refused
/// with 75 while a daemon holds the data directory's lock; with the daemon stopped it creates an
/// admin whose token (0600, a new file) works at the next start, which audits it once.
@Suite struct AdminRecoveryTests {
    @Test func aNewAdminTokenIsRefusedWhileTheDaemonRunsAndWorksAfterItStopped() throws {
        let dir = try ConfigDirectory()
        let d = try TestDaemon(configFile: dir.serverFile)
        let tokenFile = dir.file("recovered.token").path
        let args = ["--config", dir.serverFile.path, "--data-dir", d.dataDir.path, "--new-admin-token", tokenFile]
        let busy = try CLIRunner.run(Repo.daemon, args)
        #expect(busy.status == 75, "\(busy.stderr)")
        #expect(busy.stderr.contains("another hyponatrackd holds the data directory"), "\(busy.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tokenFile))
        // A second daemon on the same directory is refused the same way.
        let second = try CLIRunner.run(Repo.daemon, ["--config", dir.serverFile.path, "--data-dir", d.dataDir.path,
                                                     "--listen", "127.0.0.1:\(try TestDaemon.freePort())"])
        #expect(second.status == 75, "\(second.stderr)")
        d.stop()

        let made = try CLIRunner.run(Repo.daemon, args)
        #expect(made.status == 0, "\(made.stderr)")
        let name = try #require(made.stdout.split(separator: " ").first { $0.hasPrefix("recovery-admin-") }.map { String($0.dropLast()) })
        #expect((try FileManager.default.attributesOfItem(atPath: tokenFile)[.posixPermissions] as? Int) == 0o600)
        let token = try String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!made.stdout.contains(token) && !made.stderr.contains(token), "the token is only in the file")
        #expect(try CLIRunner.run(Repo.daemon, args).status == 1, "an existing token file is never overwritten")

        try d.start()
        let staff = try d.request(.get, "/v1/staff", token: token)
        #expect(staff.status == 200, "the recovered token works: \(staff.text)")
        #expect(staff.text.contains(name))
        #expect(d.log.contains("an admin was created offline"), "\(d.log)")
        func recoveries() throws -> Int {
            let audit = try d.request(.get, "/v1/audit?subject=staff:\(name)", token: token)
            guard case .array(let rows) = audit.json else { throw TestFailure(audit.text) }
            return rows.filter { Hooks.string(Hooks.object($0)?["action"]) == "staff.recover" }.count
        }
        #expect(try recoveries() == 1)
        d.stop()
        try d.start()
        #expect(try recoveries() == 1, "audited once, not at every start")
        #expect(try d.request(.get, "/v1/audit/verify", token: token)["intact"] == true)
    }
}
