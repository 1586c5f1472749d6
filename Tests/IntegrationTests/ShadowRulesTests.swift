import Foundation
import Testing
import HTJSON

/// Shadow rules over real HTTP against the real daemon (docs/product.md, third round, O): a
/// shadow that would turn a day red raises no alert, leaves `/v1/me/today`, the audit trail's
/// alerts and the REDCap row (the days CSV is the mapper's row) as they were, and shows in the
/// outcome report's comparison; it survives a restart, wins over `rules.shadow`, and promotion
/// makes it live through the reload path, audited, keeping the old files as `*.previous`.
@Suite(.serialized) struct ShadowRulesTests {
    /// A copy of the rule files whose symptom score is yellow from 1 and red from 2 points.
    static func strictRules() throws -> ConfigDirectory {
        let dir = try ConfigDirectory()
        let text = try String(contentsOf: dir.file("thresholds.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"symptom_score\": {\"reference\": 0, \"yellow\": 10, \"red\": 20}",
                                  with: "\"symptom_score\": {\"reference\": 0, \"yellow\": 1, \"red\": 2}")
        try dir.write(text, to: "thresholds.json")
        return dir
    }

    /// Today with fatigue 1 and VAS 10: a symptom score of 2 — green live, red under `strictRules`.
    static func mildDay(_ d: TestDaemon, _ token: String) throws -> TestDaemon.Response {
        let today = Study.date(0)
        let symptom: JSONValue = ["id": "m1", "time": .string(Study.time(today, "08:00")), "slot": "morning", "nausea": 0, "headache": 0,
                                  "fatigue": 1, "confusion": 0, "muscleCramps": 0, "vas": 10]
        return try d.request(.put, "/v1/me/days/\(today)", token: token, body: ["weightMorningKg": 80.0, "symptoms": [symptom]])
    }

    static func shadow(_ d: TestDaemon) throws -> JSONObject {
        let r = try d.request(.get, "/v1/rules/shadow", token: d.adminToken)
        guard r.status == 200, case .object(let o) = r.json else { throw TestFailure("shadow: \(r.text)") }
        return o
    }

    @Test func aShadowThatWouldTurnADayRedHasNoEffectButItsComparison() throws {
        let config = try ConfigDirectory()
        let d = try TestDaemon(configFile: config.serverFile)
        let strict = try Self.strictRules()
        let set = try CLIRunner.run(["rules", "shadow", "--rules", strict.url.path], server: d.baseURL, token: d.adminToken)
        #expect(set.status == 0 && set.stdout.hasPrefix("Shadow rules: "), "\(set.stdout) \(set.stderr)")
        let shadowVersion = try #require(try Self.shadow(d)["shadowVersion"])
        let source = try Self.shadow(d)["source"]
        #expect(shadowVersion != .null && source == "database")

        let token = try Study.enrollAndActivate(d, "SH-1")
        let day = try Self.mildDay(d, token)
        #expect(day.status == 200 && day["level"] == "green", "\(day.text)")
        #expect(try d.request(.get, "/v1/me/today", token: token)["level"] == "green")
        let alerts = try d.request(.get, "/v1/alerts", token: d.adminToken)
        #expect(alerts.json == .array([]), "no alert: \(alerts.text)")
        let audit = try d.request(.get, "/v1/audit?subject=SH-1", token: d.adminToken).text
        #expect(!audit.contains("alert.open"))
        let (_, rows) = try RFC4180.table(try d.download("/v1/export/days.csv", token: d.adminToken).body)
        #expect(rows.map { $0["alert_level"] } == ["green"], "the REDCap row keeps the live level")

        let report = try d.request(.get, "/v1/outcomes/report", token: d.adminToken)
        guard case .object(let c)? = report["shadow"] else { throw TestFailure("no comparison: \(report.text)") }
        #expect(c["otherVersion"] == shadowVersion && c["daysCompared"] == 1 && c["changedDayCount"] == 1)
        #expect(c["matrix"] == ["green": ["green": 0, "yellow": 0, "red": 1], "yellow": ["green": 0, "yellow": 0, "red": 0],
                                "red": ["green": 0, "yellow": 0, "red": 0]])
        guard case .object(let live)? = c["live"], case .object(let other)? = c["other"] else { throw TestFailure("sides") }
        #expect(live["redAlerts"] == 0 && other["redAlerts"] == 1)
        _ = try Study.staff(d, "page.admin", role: "admin")
        try ConsoleClient.setPassword(d, "page.admin", "correct horse battery")
        let console = ConsoleClient(d)
        try console.signIn("page.admin", "correct horse battery")
        let page = try console.get("/console/outcomes")
        #expect(page.status == 200 && page.text.contains("id=\"shadow-matrix\""))

        // A restart keeps the shadow; `--off` turns it off over the configuration.
        d.stop()
        try d.start()
        #expect(try Self.shadow(d)["shadowVersion"] == shadowVersion)
        let off = try CLIRunner.run(["rules", "shadow", "--off"], server: d.baseURL, token: d.adminToken)
        #expect(off.status == 0 && off.stdout.contains("Shadow rules: off"))
        #expect(try Self.shadow(d)["shadowVersion"] == .null)
        #expect(try CLIRunner.run(["rules", "shadow", "--off"], server: d.baseURL, token: try Study.staff(d, "nn", role: "nurse")).status == 77)
    }

    @Test func theConfiguredShadowIsUsedUntilTheCLITurnsItOffAndInvalidShadowRulesStopTheStart() throws {
        let strict = try Self.strictRules()
        let config = try ConfigDirectory()
        let server = try String(contentsOf: config.serverFile, encoding: .utf8)
        let withShadow = server.replacingOccurrences(of: "\"rules\": {", with: "\"rules\": {\"shadow\": \"\(strict.url.path)\", ")
        if withShadow == server {
            guard case .object(var o) = try JSONParser.parse(Array(server.utf8)) else { throw TestFailure("config") }
            o["rules"] = ["shadow": .string(strict.url.path)]
            try config.write(JSONSerializer.string(.object(o)), to: "hyponatrack.json")
        } else {
            try config.write(withShadow, to: "hyponatrack.json")
        }
        let d = try TestDaemon(configFile: config.serverFile)
        #expect(try Self.shadow(d)["source"] == "configuration")
        _ = try CLIRunner.run(["rules", "shadow", "--off"], server: d.baseURL, token: d.adminToken)
        d.stop()
        try d.start()
        #expect(try Self.shadow(d)["shadowVersion"] == .null, "the CLI's off wins over rules.shadow")
        d.stop()

        try strict.write("{\"not\": \"rules\"}", to: "thresholds.json")
        let fresh = try ConfigDirectory()
        guard case .object(var o) = try JSONParser.parse(Array(try String(contentsOf: fresh.serverFile, encoding: .utf8).utf8)) else {
            throw TestFailure("config")
        }
        var rules = JSONObject()
        if case .object(let r)? = o["rules"] { rules = r }
        rules["shadow"] = .string(strict.url.path)
        o["rules"] = .object(rules)
        try fresh.write(JSONSerializer.string(.object(o)), to: "hyponatrack.json")
        let check = try CLIRunner.run(Repo.daemon, ["--config", fresh.serverFile.path, "--check-config"])
        #expect(check.status == 78 && check.stderr.contains("shadow"), "\(check.status) \(check.stderr)")
    }

    @Test func promotionMakesTheShadowLiveThroughTheReloadPathAndIsAudited() throws {
        let config = try ConfigDirectory()
        let d = try TestDaemon(configFile: config.serverFile)
        let before = try d.request(.get, "/healthz")["rulesVersion"]
        #expect(try d.request(.post, "/v1/rules/promote", token: d.adminToken).status == 409, "no shadow yet")
        let strict = try Self.strictRules()
        _ = try CLIRunner.run(["rules", "shadow", "--rules", strict.url.path], server: d.baseURL, token: d.adminToken)
        let shadowVersion = try Self.shadow(d)["shadowVersion"]
        let token = try Study.enrollAndActivate(d, "SH-P")
        #expect(try Self.mildDay(d, token)["level"] == "green")

        let promoted = try CLIRunner.run(["rules", "promote"], server: d.baseURL, token: d.adminToken)
        #expect(promoted.status == 0 && promoted.stdout.contains("The shadow rules are live"), "\(promoted.stdout) \(promoted.stderr)")
        #expect(try d.request(.get, "/healthz")["rulesVersion"] == shadowVersion && shadowVersion != before)
        #expect(try Self.shadow(d)["shadowVersion"] == .null, "the shadow is off")
        #expect(FileManager.default.fileExists(atPath: config.file("thresholds.json.previous").path))
        #expect(try String(contentsOf: config.file("thresholds.json"), encoding: .utf8)
            == (try String(contentsOf: strict.file("thresholds.json"), encoding: .utf8)))
        let audit = try d.request(.get, "/v1/audit", token: d.adminToken).text
        #expect(audit.contains("\"rules.promote\"") && audit.contains("\"rules.shadow\""))
        // Stored days keep their evaluation; the next one is made under the promoted rules.
        let (_, rows) = try RFC4180.table(try d.download("/v1/export/days.csv", token: d.adminToken).body)
        #expect(rows.first?["alert_level"] == "green" && rows.first?["daily_rules_version"] == before.flatMap { if case .string(let s) = $0 { s } else { nil } })
        #expect(try Self.mildDay(d, token)["level"] == "red")
        d.stop()
        try d.start()
        #expect(try d.request(.get, "/healthz")["rulesVersion"] == shadowVersion, "the promoted files are what a restart reads")
    }
}
