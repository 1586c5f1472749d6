import Foundation
import Testing
import HTJSON

/// Start-up, secrets on disk, reload, graceful stop.
@Suite struct DaemonLifecycleTests {
    @Test func aNewDatabaseGetsAnOwnerOnlyAdminTokenWhosePathNotValueIsLogged() throws {
        let d = try TestDaemon()
        let path = d.dataDir.appendingPathComponent("admin.token").path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(d.adminToken.hasPrefix("hts_"))
        #expect(d.log.contains(path))
        #expect(!d.log.contains(d.adminToken))
        // A restart on the same database writes no new token.
        d.stop()
        try FileManager.default.removeItem(atPath: path)
        try d.start()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func theDatabaseFileIsOwnerOnlyAndTokensAreStoredHashed() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "SEC-1")
        d.stop()
        let db = d.dataDir.appendingPathComponent("hyponatrack.sqlite").path
        let mode = try FileManager.default.attributesOfItem(atPath: db)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        if let wal = try? Data(contentsOf: URL(fileURLWithPath: db + "-wal")) { bytes.append(wal) }
        #expect(bytes.range(of: Data(token.utf8)) == nil, "the patient token is stored in clear")
        #expect(bytes.range(of: Data(d.adminToken.utf8)) == nil, "the admin token is stored in clear")
    }

    @Test func sighupReloadsValidRulesAndKeepsTheOldOnesWhenInvalid() throws {
        let dir = try ConfigDirectory()
        let d = try TestDaemon(configFile: dir.serverFile)
        func version() throws -> JSONValue? { try d.request(.get, "/healthz")["rulesVersion"] }
        let original = try version()
        let thresholds = dir.file("thresholds.json")
        let text = try String(contentsOf: thresholds, encoding: .utf8)
        try text.replacingOccurrences(of: "\"yellow\": 1.5", with: "\"yellow\": \"1.5\"").write(to: thresholds, atomically: true, encoding: .utf8)
        d.signal(SIGHUP)
        try waitUntil { d.log.contains("rules reload refused") }
        #expect(try version() == original)
        #expect(d.log.contains("scaled.weight_gain_pct.yellow"))
        try text.replacingOccurrences(of: "\"yellow\": 1.5", with: "\"yellow\": 1.4").write(to: thresholds, atomically: true, encoding: .utf8)
        d.signal(SIGHUP)
        try waitUntil { d.log.contains("rules reloaded") }
        #expect(try version() != original)
    }

    @Test func sigtermStopsGracefullyWithExitStatusZero() throws {
        let d = try TestDaemon()
        _ = try Study.enrollAndActivate(d, "STOP-1")
        d.stop()
        #expect(d.exitStatus == 0)
        #expect(d.log.contains("msg=stopped"))
    }

    @Test func anInvalidConfigurationIsRefusedNamingTheKey() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("hyponatrack.json")
        try #"{"listen": "127.0.0.1:8750", "dataDirectory": "data", "trustedProxys": []}"#.write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: TestFailure.self) { _ = try TestDaemon(configFile: file) }
        let redcap = dir.appendingPathComponent("redcap.json")
        try #"{"redcap": {"url": "http://redcap.example.org/api/"}}"#.write(to: redcap, atomically: true, encoding: .utf8)
        do {
            _ = try TestDaemon(configFile: redcap)
            Issue.record("an http:// REDCap URL was accepted")
        } catch let e as TestFailure {
            #expect(e.description.contains("redcap.url"))
        }
    }
}

