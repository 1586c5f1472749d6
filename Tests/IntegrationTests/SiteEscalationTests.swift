import Foundation
import Testing
import HTJSON

/// Per-site escalation and hooks (docs/product.md, third round, S, and its settled details):
/// `escalation.sites.CODE` ladders, the hooks' `sites` filter, `site` in every alert event, a
/// transfer re-planning the tiers not yet fired on the new site's ladder, and a configuration
/// naming a site the database lacks refused at start (exit 78). Real daemon, real
/// `scripts/webhook-receiver`.
@Suite struct SiteEscalationTests {
    /// A data directory whose database has the sites `a` and `b` (added by an earlier daemon:
    /// the configuration may name only sites that exist at start).
    static func dataDirectoryWithSites() throws -> URL {
        let d = try TestDaemon()
        for code in ["a", "b"] {
            let r = try d.request(.post, "/v1/sites", token: d.adminToken, body: ["code": .string(code), "name": .string("Site \(code)")])
            guard r.status == 201 else { throw TestFailure("site add \(code): \(r.text)") }
        }
        d.stop()
        return d.dataDir
    }

    static func enroll(_ rig: HookRig, _ studyId: String, site: String) throws -> String {
        try rig.patient(studyId, [("site", .string(site))])
    }

    static func sites(_ deliveries: [WebhookDelivery]) -> Set<String> { Set(deliveries.compactMap { Hooks.string($0.data?["site"]) }) }

    @Test func alertsOfASitesPatientReachThatSitesHooksOnlyAndATransferReplansTheLadder() throws {
        var config = try HookConfig()
        let receiver = try WebhookReceiver(secret: config.secret)
        config.webhook("ward_a", url: receiver.url("/a"), sites: ["a"])
        config.webhook("ward_b", url: receiver.url("/b"), sites: ["b"])
        config.webhook("gateway", url: receiver.url("/all"))
        // The study's ladder names every hook; the filter keeps another site's ward out. Site b
        // has its own red ladder: its ward at once, again 3 s later.
        config.red = [(0, ["ward_a", "ward_b", "gateway"]), (600, ["ward_a"])]
        config.siteLadders["b"] = (red: [(0, ["ward_b"]), (0.05, ["ward_b"])], yellow: nil)
        let rig = try HookRig(config, receivers: ["receiver": receiver], dataDir: try Self.dataDirectoryWithSites())

        _ = try Self.enroll(rig, "SITE-A1", site: "a")
        _ = try Self.enroll(rig, "SITE-B1", site: "b")
        #expect(try rig.lab("SITE-A1", 127).level == "red")
        #expect(try rig.lab("SITE-B1", 127).level == "red")
        try rig.waitUntil("site b's ladder escalates its patient's alert") {
            try receiver.deliveries("/b", type: "alert.escalated").count == 1
        }
        let a = try receiver.deliveries("/a"), b = try receiver.deliveries("/b"), all = try receiver.deliveries("/all")
        #expect(a.map(\.type) == ["alert.opened"] && Self.sites(a) == ["a"], "\(a.map(\.summary))")
        #expect(a.allSatisfy { Hooks.string($0.data?["studyId"]) == "SITE-A1" })
        #expect(b.map(\.type) == ["alert.opened", "alert.escalated"] && Self.sites(b) == ["b"], "\(b.map(\.summary))")
        #expect(b.allSatisfy { Hooks.string($0.data?["studyId"]) == "SITE-B1" })
        // The gateway hears site a's patient (study ladder) but is on no tier of site b's ladder.
        #expect(all.map(\.type) == ["alert.opened"] && Self.sites(all) == ["a"], "\(all.map(\.summary))")

        // A transfer to b: the study ladder's tier 1 (10 min) is not yet fired, so it is planned
        // again on b's ladder (tier 1 after 3 s, ward_b); tier 0 fired already and stays fired.
        let moved = try rig.daemon.request(.post, "/v1/patients/SITE-A1/transfer", token: rig.admin, body: ["site": "b"])
        #expect(moved.status == 200, "\(moved.text)")
        try rig.waitUntil("the transferred patient's alert escalates on site b's ladder") {
            try receiver.deliveries("/b", type: "alert.escalated").contains { Hooks.string($0.data?["studyId"]) == "SITE-A1" }
        }
        let escalated = try receiver.deliveries("/b", type: "alert.escalated").filter { Hooks.string($0.data?["studyId"]) == "SITE-A1" }
        #expect(escalated.count == 1 && escalated[0].tier == 1 && Self.sites(escalated) == ["b"])
        #expect(try receiver.deliveries("/a").count == 1, "site a's ward hears nothing more of a patient gone to b")
    }

    @Test func anEmailHookNamesThePatientsSiteAndHearsOnlyItsSites() throws {
        let receiver = try SMTPReceiver(mode: "implicit")
        var config = try HookConfig()
        try config.email("ward-a-mail", receiver: receiver, to: ["ward-a@clinic.example"])
        if case .object(var hook) = config.hooks[0] {
            hook["sites"] = ["a"]
            config.hooks[0] = .object(hook)
        }
        config.red = [(0, ["ward-a-mail"])]
        let rig = try HookRig(config, dataDir: try Self.dataDirectoryWithSites())
        _ = try Self.enroll(rig, "MAIL-B1", site: "b")
        _ = try Self.enroll(rig, "MAIL-A1", site: "a")
        #expect(try rig.lab("MAIL-B1", 127).level == "red")
        #expect(try rig.lab("MAIL-A1", 127).level == "red")
        try rig.waitUntil("site a's ward is mailed") { try receiver.messages().count >= 1 }
        let messages = try receiver.messages()
        let body = Hooks.string(messages[0]["body"]) ?? ""
        #expect(messages.count == 1 && body.contains("MAIL-A1") && body.contains("Site:      a\r\n") && !body.contains("MAIL-B1"),
                "\(messages.count) \(body)")
    }

    /// `hyponatrackd --check-config --data-dir D`: the status and message a start would give.
    static func checkConfig(_ configFile: URL, dataDir: URL) throws -> CLIRunner.Result {
        try CLIRunner.run(Repo.daemon, ["--check-config", "--config", configFile.path, "--data-dir", dataDir.path])
    }

    @Test func aConfigurationNamingASiteTheDatabaseLacksIsRefusedAtStartAndByCheckConfigWithExit78() throws {
        let dataDir = try Self.dataDirectoryWithSites()
        var config = try HookConfig()
        config.webhook("ward", url: "http://127.0.0.1:9/ward", sites: ["a"])
        config.red = [(0, ["ward"])]
        config.siteLadders["b"] = (red: [(0, ["ward"])], yellow: nil)
        let fine = try Self.checkConfig(try config.write(), dataDir: dataDir)
        #expect(fine.status == 0, "sites a and b exist: \(fine.stderr)")
        config.siteLadders["zz"] = (red: [(0, ["ward"])], yellow: nil)
        let checked = try Self.checkConfig(try config.write(), dataDir: dataDir)
        #expect(checked.status == 78 && checked.stderr.contains("escalation.sites.zz: no site zz in the database (sites: a, b, main)"),
                "\(checked.stderr)")
        let refused = #expect(throws: TestFailure.self) { _ = try TestDaemon(dataDir: try Self.dataDirectoryWithSites(), configFile: try config.write()) }
        #expect(refused?.description.contains("status 78") == true && refused?.description.contains("escalation.sites.zz") == true,
                "\(refused?.description ?? "")")
        config.siteLadders = [:]
        config.hooks = []
        config.webhook("ward", url: "http://127.0.0.1:9/ward", sites: ["a", "nowhere"])
        let hookChecked = try Self.checkConfig(try config.write(), dataDir: dataDir)
        #expect(hookChecked.status == 78 && hookChecked.stderr.contains("hooks[0].sites: no site nowhere"), "\(hookChecked.stderr)")
        let hook = #expect(throws: TestFailure.self) { _ = try TestDaemon(dataDir: try Self.dataDirectoryWithSites(), configFile: try config.write()) }
        #expect(hook?.description.contains("status 78") == true && hook?.description.contains("hooks[0].sites") == true,
                "\(hook?.description ?? "")")

        // Before the first start there is no database: a new one has the one site `main`.
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("so-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let fresh = try Self.checkConfig(try config.write(), dataDir: empty)
        #expect(fresh.status == 78 && fresh.stderr.contains("hooks[0].sites: no site a in the database (sites: main)"), "\(fresh.stderr)")
        config.hooks = []
        config.webhook("ward", url: "http://127.0.0.1:9/ward", sites: ["main"])
        let freshMain = try Self.checkConfig(try config.write(), dataDir: empty)
        #expect(freshMain.status == 0, "\(freshMain.stderr)")
        #expect(!FileManager.default.fileExists(atPath: empty.appendingPathComponent("hyponatrack.sqlite").path), "the check creates no database")
    }
}
