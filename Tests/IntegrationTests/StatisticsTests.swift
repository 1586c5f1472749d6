import Foundation
import Testing
import HTJSON

/// `GET /v1/statistics` over the real daemon on the scenario of Support/ExportScenario.swift,
/// with the figures worked out by hand from its steps.
@Suite struct StatisticsTests {
    func scenario() throws -> ExportScenario { try ExportTests.scenario.get() }

    static func cohorts(_ r: TestDaemon.Response) -> [String: JSONObject] {
        guard case .array(let list)? = r["cohorts"] else { return [:] }
        var out: [String: JSONObject] = [:]
        for case .object(let c) in list { if case .string(let name)? = c["cohort"] { out[name] = c } }
        return out
    }

    static func value(_ o: JSONObject?, _ path: String...) -> JSONValue? {
        var v: JSONValue? = o.map { .object($0) }
        for key in path { if case .object(let x)? = v { v = x[key] } else { return nil } }
        return v
    }

    static func rounded(_ v: Double, _ places: Double) -> JSONValue { .number((v * places).rounded() / places) }

    /// EXP-A's monitored days so far: POD 1 (yesterday-minus-ten) through today in London.
    static var daysA: Int { ExportScenario.londonToday == Study.date(0) ? 12 : 11 }

    @Test func theCohortFiguresMatchTheScenarioWorkedOutByHand() throws {
        let s = try scenario()
        let r = try s.d.request(.get, "/v1/statistics", token: s.viewer)
        #expect(r.status == 200, "\(r.text)")
        #expect(r["studyId"] == nil)
        let c = Self.cohorts(r)
        #expect(Set(c.keys) == ["all", "low", "medium", "high"])
        let all = c["all"]
        let days = Self.daysA + 12 + 11                                   // A, B (POD 1 … 12), C (POD 1 … 11)
        #expect(Self.value(all, "patients") == ["enrolled": 3, "active": 2, "finished": 0, "withdrawn": 1])
        #expect(Self.value(all, "patientDays") == .int(days))
        #expect(Self.value(all, "daysByLevel") == ["green": 1, "yellow": 1, "red": 1, "none": .int(days - 3)])
        #expect(Self.value(all, "adherence") == .null, "activated today: no completed day was due yet")
        #expect(Self.value(all, "alertsPer100PatientDays", "byLevel") == ["yellow": Self.rounded(100 / Double(days), 100),
                                                                          "red": Self.rounded(100 / Double(days), 100)])
        #expect(Self.value(all, "alertsPer100PatientDays", "byKind") == ["evaluation": Self.rounded(200 / Double(days), 100),
                                                                         "missing_checkin": 0, "no_data_2d": 0])
        // One alert acknowledged and resolved; the open red one is left out of both.
        let toAck = ExportScenario.minutes(s.alertA["openedAt"], s.alertA["acknowledgedAt"]) ?? -1
        let toResolve = ExportScenario.minutes(s.alertA["openedAt"], s.alertA["resolvedAt"]) ?? -1
        #expect(Self.value(all, "ackMinutes") == ["median": Self.rounded(toAck, 10), "p90": Self.rounded(toAck, 10), "n": 1])
        #expect(Self.value(all, "resolveMinutes") == ["median": Self.rounded(toResolve, 10), "p90": Self.rounded(toResolve, 10), "n": 1])
        #expect(Self.value(all, "missingDataAlerts") == 0)

        // A and C share the default profile's class; B is high risk (craniopharyngioma).
        let own = c[s.riskA]
        #expect(s.riskA != "high")
        #expect(Self.value(own, "patients") == ["enrolled": 2, "active": 1, "finished": 0, "withdrawn": 1])
        #expect(Self.value(own, "patientDays") == .int(Self.daysA + 11))
        #expect(Self.value(own, "ackMinutes", "n") == 1)
        let high = c["high"]
        #expect(Self.value(high, "patientDays") == 12)
        #expect(Self.value(high, "daysByLevel") == ["green": 0, "yellow": 0, "red": 1, "none": 11])
        #expect(Self.value(high, "alertsPer100PatientDays", "byLevel", "red") == 8.33)    // 100 / 12
        #expect(Self.value(high, "ackMinutes") == ["median": .null, "p90": .null, "n": 0])
        let empty = c[s.riskA == "low" ? "medium" : "low"]
        #expect(Self.value(empty, "patients", "enrolled") == 0)
        #expect(Self.value(empty, "alertsPer100PatientDays", "byLevel", "red") == .null)
    }

    @Test func oneStudyIdGivesTheSameObjectForThatPatient() throws {
        let s = try scenario()
        let r = try s.d.request(.get, "/v1/statistics?studyId=exp-b", token: s.d.adminToken)
        #expect(r.status == 200)
        #expect(r["studyId"] == "EXP-B")
        let all = Self.cohorts(r)["all"]
        #expect(Self.value(all, "patients", "enrolled") == 1 && Self.value(all, "patientDays") == 12)
        #expect(Self.value(all, "daysByLevel", "red") == 1)
        #expect(Self.value(all, "alertsPer100PatientDays", "byKind", "evaluation") == 8.33)
    }

    /// The contract's "alerts per 100 patient-days by level and kind": the page had the levels only.
    @Test func theConsoleStatisticsPageShowsTheAlertRatesByKindAsTheAPIGivesThem() throws {
        let s = try scenario()
        try ConsoleClient.setPassword(s.d, "reader", "correct horse battery")
        let c = ConsoleClient(s.d)
        try c.signIn("reader", "correct horse battery")
        let page = try c.get("/console/statistics")
        #expect(page.status == 200)
        let all = Self.cohorts(try s.d.request(.get, "/v1/statistics", token: s.viewer))["all"]
        for (label, kind) in [("Evaluation alerts per 100 patient-days", "evaluation"),
                              ("Missed check-in alerts per 100 patient-days", "missing_checkin"),
                              ("No data for 2 days: alerts per 100 patient-days", "no_data_2d")] {
            guard case .number(let rate)? = Self.value(all, "alertsPer100PatientDays", "byKind", kind) else {
                Issue.record("no \(kind) rate in the API's answer"); continue
            }
            let cell = "<th scope=\"row\">\(label)</th><td class=\"num\">\(String(format: "%.1f", rate))</td>"
            #expect(page.text.contains(cell), "\(kind): \(cell)")
        }
    }

    @Test func statisticsAreForStaffAndAnUnknownPatientIsNotFound() throws {
        let s = try scenario()
        #expect(try s.d.request(.get, "/v1/statistics", token: s.tokenA).status == 403)
        #expect(try s.d.request(.get, "/v1/statistics?studyId=NOBODY", token: s.d.adminToken).status == 404)
    }
}

/// `hyponatrack export` and `hyponatrack stats`, the real CLI against the real daemon.
@Suite struct ExportCLITests {
    func scenario() throws -> ExportScenario { try ExportTests.scenario.get() }

    func cli(_ s: ExportScenario, _ args: [String], token: String? = nil) throws -> CLIRunner.Result {
        try CLIRunner.run(args, server: s.d.baseURL, token: token ?? s.d.adminToken)
    }

    @Test func exportDaysToAFileWritesTheServersCSVOwnerOnly() throws {
        let s = try scenario()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("days-\(UUID().uuidString).csv").path
        let r = try cli(s, ["export", "days", "--patient", "EXP-A", "-o", file])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "Wrote 3 day rows to \(file).\n")
        let bytes = Array(FileManager.default.contents(atPath: file) ?? Data())
        #expect(bytes == (try s.download("/v1/patients/EXP-A/export.csv")).body)
        #expect(try RFC4180.parse(bytes).count == 4)
        let mode = (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) ?? 0
        #expect(mode == 0o600)
    }

    @Test func exportAlertsWithoutOutputWritesTheCSVToStdout() throws {
        let s = try scenario()
        let r = try cli(s, ["export", "alerts"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Array(r.stdout.utf8) == (try s.download("/v1/export/alerts.csv")).body)
        let one = try cli(s, ["export", "alerts", "--patient", "EXP-B"])
        #expect(try RFC4180.table(Array(one.stdout.utf8)).rows.map { $0["record_id"] } == ["EXP-B"])
    }

    @Test func exportWithOutputDashWritesTheCSVToStdoutAndNoFile() throws {
        let s = try scenario()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let r = try CLIRunner.run(["export", "days", "-o", "-"], server: s.d.baseURL, token: s.d.adminToken, directory: directory)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(r.stdoutBytes == (try s.download("/v1/export/days.csv")).body)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "no file named -")
        let named = try CLIRunner.run(["export", "alerts", "--output", "./-"], server: s.d.baseURL, token: s.d.adminToken,
                                      directory: directory)
        #expect(named.status == 0 && named.stdout.hasPrefix("Wrote "), "./- is a file named -: \(named.stdout)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("-").path))
    }

    @Test func badInputIsReportedWithTheRightExitCode() throws {
        let s = try scenario()
        let missing = try cli(s, ["export", "days", "--patient", "NOBODY"])
        #expect(missing.status == 1 && missing.stdout.isEmpty)
        #expect(missing.stderr.contains("export days: no patient with study ID NOBODY (not_found)"), "\(missing.stderr)")
        let stats = try cli(s, ["stats", "--patient", "NOBODY"])
        #expect(stats.status == 1 && stats.stderr.contains("stats: no patient with study ID NOBODY"), "\(stats.stderr)")
        #expect(try cli(s, ["export", "days", "--json"]).status == 64)
        #expect(try cli(s, ["export", "everything"]).status == 64)
        #expect(try cli(s, ["export", "days", "-o"]).status == 64)
        #expect(try cli(s, ["export", "days"], token: s.tokenA).status == 77, "a patient token is refused")
    }

    @Test func statsPrintsATableOrTheServersJSON() throws {
        let s = try scenario()
        let json = try cli(s, ["stats", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let parsed = try JSONParser.parse(Array(json.stdout.utf8))
        let api = try s.d.request(.get, "/v1/statistics", token: s.d.adminToken)
        if case .object(let a) = parsed, case .object(let b) = api.json { #expect(a["cohorts"] == b["cohorts"]) } else {
            Issue.record("not JSON: \(json.stdout)")
        }
        let table = try cli(s, ["stats"])
        #expect(table.status == 0)
        #expect(table.stdout.contains("ALL") && table.stdout.contains("HIGH") && table.stdout.contains("patient-days"), "\(table.stdout)")
        #expect(table.stdout.contains("alerts acknowledged"))
    }
}
