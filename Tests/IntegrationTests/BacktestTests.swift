import Foundation
import Testing
import HTJSON

/// The backtest over real HTTP against the real daemon (docs/product.md, third round, O), on the
/// labelled cohort (`OutcomeCohort`): the live rules reproduce every stored day (a diagonal
/// matrix, no changed day, no changed reason code); a candidate that lowers one threshold changes
/// exactly the days `hyponatrack evaluate --rules CANDIDATE` changes for the same cases; invalid
/// rule bodies are refused naming the member and key; a kill -9 mid-backtest changes nothing.
@Suite(.serialized) struct BacktestTests {
    struct Scenario: Sendable {
        let d: TestDaemon
        let nurse: String

        init() throws {
            d = try TestDaemon()
            nurse = try Study.staff(d, "olga", role: "nurse", allSites: true)
            try OutcomeCohort.build(d, nurse: nurse)
        }
    }

    static let scenario = Result { try Scenario() }
    func scenario() throws -> Scenario { try Self.scenario.get() }

    /// The four rule files of a directory as the backtest body.
    static func body(_ directory: URL, thresholds: ((String) -> String)? = nil) throws -> JSONValue {
        var o = JSONObject()
        for (key, file) in [("riskModel", "risk-model.json"), ("thresholds", "thresholds.json"), ("reminders", "reminders.json"),
                            ("instructions", "instructions.json")] {
            var text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            if key == "thresholds", let thresholds { text = thresholds(text) }
            o[key] = .string(text)
        }
        return .object(o)
    }

    /// The candidate of these tests: sodium's yellow deficit lowered from 6 to 5 mmol/L.
    static func lowerSodium(_ text: String) -> String {
        text.replacingOccurrences(of: "\"sodium_low\": {\"reference\": 0, \"yellow\": 6,", with: "\"sodium_low\": {\"reference\": 0, \"yellow\": 5,")
    }

    static func comparison(_ r: TestDaemon.Response) throws -> JSONObject {
        guard r.status == 200, case .object(let c)? = r["comparison"] else { throw TestFailure("backtest: \(r.status) \(r.text)") }
        return c
    }

    @Test func theLiveRulesReproduceEveryStoredDayAndItsReasonCodes() throws {
        let s = try scenario()
        let r = try s.d.request(.post, "/v1/rules/backtest", token: s.d.adminToken, body: try Self.body(Repo.config))
        let c = try Self.comparison(r)
        let labels = OutcomeCohort.patients.flatMap { Array($0.days) }
        let count = { (l: Character) in labels.filter { $0 == l }.count }
        // OC-08's deleted lab left POD 10 evaluated without a level: compared, not evaluated.
        #expect(c["daysCompared"] == .int(count("g") + count("y") + count("r") + 1) && c["daysNotEvaluated"] == 1, "\(r.text.prefix(600))")
        #expect(c["changedDayCount"] == 0 && c["daysUnderOtherRules"] == 0 && r["reasonsChangedDays"] == 0)
        let matrix: JSONValue = ["green": ["green": .int(count("g")), "yellow": 0, "red": 0],
                                 "yellow": ["green": 0, "yellow": .int(count("y")), "red": 0],
                                 "red": ["green": 0, "yellow": 0, "red": .int(count("r"))]]
        #expect(c["matrix"] == matrix)
        #expect(r["candidateVersion"] == c["liveVersion"])
        let audit = try s.d.request(.get, "/v1/audit", token: s.d.adminToken).text
        #expect(audit.contains("\"rules.backtest\""))
        let viewer = try Study.staff(s.d, "vic", role: "viewer", allSites: true)
        #expect(try s.d.request(.post, "/v1/rules/backtest", token: s.nurse, body: try Self.body(Repo.config)).status == 403)
        #expect(try s.d.request(.post, "/v1/rules/backtest", token: viewer, body: try Self.body(Repo.config)).status == 403)
    }

    @Test func aLowerThresholdChangesExactlyTheDaysTheOfflineEvaluatorChanges() throws {
        let s = try scenario()
        let candidate = try ConfigDirectory()
        try candidate.write(Self.lowerSodium(try String(contentsOf: candidate.file("thresholds.json"), encoding: .utf8)), to: "thresholds.json")
        let cli = try CLIRunner.run(["rules", "backtest", "--rules", candidate.url.path, "--json"], server: s.d.baseURL, token: s.d.adminToken)
        #expect(cli.status == 0, "\(cli.stderr)")
        guard case .object(let answer) = try JSONParser.parse(Array(cli.stdout.utf8)), case .object(let c)? = answer["comparison"],
              case .array(let changed)? = c["changedDays"] else { throw TestFailure(cli.stdout) }
        let fromBacktest = Set(changed.compactMap { v -> String? in
            guard case .object(let o) = v, case .string(let id)? = o["studyId"], case .string(let date)? = o["date"],
                  case .string(let level)? = o["candidate"] else { return nil }
            return "\(id) \(date) \(level)"
        })

        // The same days as case files for the offline evaluator: each day with the two before it.
        var cases: [JSONValue] = []
        var labels: [String: String] = [:]
        for p in OutcomeCohort.patients {
            var days: [Int: JSONObject] = [:]
            for (i, label) in p.days.enumerated() where label != "." {
                var day = OutcomeCohort.body(label, date: OutcomeCohort.date(pod: i + 1), id: "s\(i)")
                day["date"] = .string(OutcomeCohort.date(pod: i + 1))
                days[i + 1] = day
            }
            for lab in p.labs where !lab.deleted {
                var day = days[lab.pod] ?? JSONObject([("date", .string(OutcomeCohort.date(pod: lab.pod)))])
                var labs: [JSONValue] = []
                if case .array(let existing)? = day["labSodium"] { labs = existing }
                labs.append(["time": .string(OutcomeCohort.labTime(pod: lab.pod)), "value": .double(lab.sodium)])
                day["labSodium"] = .array(labs)
                days[lab.pod] = day
            }
            for (pod, _) in days {
                let id = "\(p.studyId) \(OutcomeCohort.date(pod: pod))"
                let window = (pod - 2...pod).compactMap { days[$0] }.map { JSONValue.object($0) }
                cases.append(["id": .string(id), "profile": OutcomeCohort.profile(p), "days": .array(window),
                              "evaluateDate": .string(OutcomeCohort.date(pod: pod))])
                labels[id] = p.level(pod: pod).map { $0 == "g" ? "green" : $0 == "y" ? "yellow" : "red" } ?? "green"
            }
        }
        let file = candidate.file("cases.json")
        try JSONSerializer.string(.array(cases)).write(to: file, atomically: true, encoding: .utf8)
        let offline = try CLIRunner.run(["evaluate", file.path, "--rules", candidate.url.path], server: s.d.baseURL, token: nil)
        guard offline.status == 0, case .array(let results) = try JSONParser.parse(Array(offline.stdout.utf8)) else {
            throw TestFailure("evaluate: \(offline.status) \(offline.stderr) \(offline.stdout.prefix(400))")
        }
        let fromEvaluator = Set(results.compactMap { v -> String? in
            guard case .object(let o) = v, case .string(let id)? = o["id"], case .string(let level)? = o["level"],
                  labels[id] != level else { return nil }
            return "\(id) \(level)"
        })
        #expect(!fromBacktest.isEmpty && fromBacktest == fromEvaluator, "\(fromBacktest) vs \(fromEvaluator)")
        #expect(fromBacktest == ["OC-02 \(OutcomeCohort.date(pod: 10)) yellow", "OC-02 \(OutcomeCohort.date(pod: 11)) yellow"])
        #expect(c["changedDayCount"] == 2)
        guard case .object(let live)? = c["live"], case .object(let other)? = c["other"] else { throw TestFailure("no sides") }
        #expect(other["yellowAlerts"] == .int((live["yellowAlerts"].flatMap { if case .number(let n) = $0 { Int(n) } else { nil } } ?? 0) + 2))
        let text = try CLIRunner.run(["rules", "backtest", "--rules", candidate.url.path], server: s.d.baseURL, token: s.d.adminToken)
        #expect(text.status == 0 && text.stdout.contains("Days whose level changes: 2") && text.stdout.contains("OC-02"), "\(text.stdout)")
    }

    @Test func aBodyThatIsNotTheFourRuleFilesIsRefusedNamingTheMemberAndKey() throws {
        let s = try scenario()
        func refused(_ body: JSONValue) throws -> TestDaemon.Response {
            try s.d.request(.post, "/v1/rules/backtest", token: s.d.adminToken, body: body)
        }
        guard case .object(var full) = try Self.body(Repo.config) else { throw TestFailure("body") }
        full["instructions"] = nil
        let missing = try refused(.object(full))
        #expect(missing.status == 400 && missing.errorField == "instructions", "\(missing.text)")
        let wrongKey = try refused(try Self.body(Repo.config) { $0.replacingOccurrences(of: "\"redGroupCount\": 3", with: "\"redGroupCount\": \"three\"") })
        #expect(wrongKey.status == 400 && wrongKey.errorField == "thresholds.combining.redGroupCount", "\(wrongKey.text)")
        #expect(wrongKey.text.contains("thresholds.json"))
        let notJSON = try refused(try Self.body(Repo.config) { _ in "{not json" })
        #expect(notJSON.status == 400 && notJSON.errorField == "thresholds", "\(notJSON.text)")
        let number = try refused(["riskModel": 1, "thresholds": "", "reminders": "", "instructions": ""])
        #expect(number.status == 400 && number.errorField == "riskModel")
        let bad = try s.d.request(.post, "/v1/rules/backtest?to=yesterday", token: s.d.adminToken, body: try Self.body(Repo.config))
        #expect(bad.status == 400 && bad.errorField == "to")
    }

    @Test func aSiteFilterReplaysOnlyThatSitesPatientsAndIsAudited() throws {
        let s = try scenario()
        let candidate = try Self.body(Repo.config, thresholds: Self.lowerSodium)
        for site in OutcomeCohort.sites {
            let r = try s.d.request(.post, "/v1/rules/backtest?site=\(site)", token: s.d.adminToken, body: candidate)
            let c = try Self.comparison(r)
            let mine = OutcomeCohort.patients.filter { $0.site == site }
            let labels = mine.flatMap { Array($0.days) }.filter { $0 != "." }
            // OC-08's deleted lab (site b) left a day evaluated without a level; OC-02 (site b) is the one changed.
            let unevaluated = mine.contains { $0.studyId == "OC-08" } ? 1 : 0
            #expect(c["daysCompared"] == .int(labels.count + unevaluated), "\(site): \(r.text.prefix(400))")
            #expect(c["changedDayCount"] == .int(mine.contains { $0.studyId == "OC-02" } ? 2 : 0), "\(site)")
            let named = Set(OutcomeCohort.patients.map(\.studyId).filter { r.text.contains($0) })
            #expect(named.isSubset(of: mine.map(\.studyId)), "\(site): \(named)")
        }
        let audit = try s.d.request(.get, "/v1/audit?limit=1000", token: s.d.adminToken)
        let sites = ImportAuditTests.rows(audit, "rules.backtest").map { ImportAuditTests.details($0)["site"] }
        #expect(sites.contains(.string("a")) && sites.contains(.string("b")), "the filter is in the audit row: \(sites)")
        let dir = try ConfigDirectory()
        try dir.write(Self.lowerSodium(try String(contentsOf: dir.file("thresholds.json"), encoding: .utf8)), to: "thresholds.json")
        let cli = try CLIRunner.run(["rules", "backtest", "--rules", dir.url.path, "--site", "a"], server: s.d.baseURL, token: s.d.adminToken)
        #expect(cli.status == 0 && cli.stdout.contains("Days whose level changes: 0") && !cli.stdout.contains("OC-02"), "\(cli.stdout)")
        let unknown = try s.d.request(.post, "/v1/rules/backtest?site=zz", token: s.d.adminToken, body: candidate)
        #expect(unknown.status == 400 && unknown.errorField == "site", "\(unknown.text)")
    }

    /// The body is the four files' text: up to 1 MiB is taken (settled O), above it 413 with a
    /// JSON message; other routes keep the server's 64 KiB, and a caller who may not backtest is
    /// refused before a large body is read.
    @Test func aBodyOfUpTo1MiBIsTakenAndALargerOneIs413() throws {
        let s = try scenario()
        guard case .object(var o) = try Self.body(Repo.config), case .string(let instructions)? = o["instructions"] else {
            throw TestFailure("body")
        }
        let base = JSONSerializer.bytes(.object(o)).count
        func body(_ total: Int) -> [UInt8] {
            // Trailing spaces are JSON whitespace: the file means the same, its bytes (and version) differ.
            o["instructions"] = .string(instructions + String(repeating: " ", count: total - base))
            return JSONSerializer.bytes(.object(o))
        }
        let fits = body(1 << 20)
        #expect(fits.count == 1 << 20)
        let taken = try s.d.request(.post, "/v1/rules/backtest", token: s.d.adminToken, raw: fits)
        #expect(taken.status == 200 && taken["comparison"] != nil, "\(taken.status) \(taken.text.prefix(300))")
        let over = try s.d.request(.post, "/v1/rules/backtest", token: s.d.adminToken, raw: body((1 << 20) + 1))
        #expect(over.status == 413 && over.text.contains("\"too_large\"") && over.text.contains("1048576"), "\(over.status) \(over.text)")
        #expect(try s.d.request(.post, "/v1/rules/backtest", token: s.nurse, raw: fits).status == 403)
        let elsewhere = try s.d.request(.post, "/v1/patients/OC-01/outcomes", token: s.nurse, raw: body(100_000))
        #expect(elsewhere.status == 413 && elsewhere.text.contains("65536"), "\(elsewhere.status) \(elsewhere.text)")
    }

    @Test func aKillNineDuringABacktestChangesNothing() throws {
        let d = try TestDaemon()
        let nurse = try Study.staff(d, "olga", role: "nurse", allSites: true)
        try OutcomeCohort.build(d, nurse: nurse)
        let before = try d.download("/v1/export/days.csv", token: nurse).body
        let outcomesBefore = try d.download("/v1/export/outcomes.csv", token: nurse).body
        let body = try Self.body(Repo.config)
        let admin = d.adminToken
        let idle = Self.cpuTicks(d.pid)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? d.request(.post, "/v1/rules/backtest", token: admin, body: body)
            finished.signal()
        }
        // Killed once the daemon is working on it (5 clock ticks of CPU beyond its idle count),
        // or, on a machine fast enough to finish first, right after the answer.
        while Self.cpuTicks(d.pid) < idle + 5, finished.wait(timeout: .now() + .milliseconds(2)) == .timedOut {}
        d.kill9()
        try d.start()
        #expect(try d.download("/v1/export/days.csv", token: nurse).body == before)
        #expect(try d.download("/v1/export/outcomes.csv", token: nurse).body == outcomesBefore)
        let verify = try d.request(.get, "/v1/audit/verify", token: d.adminToken)
        #expect(verify.status == 200 && verify["intact"] == true, "\(verify.text)")
        let again = try Self.comparison(try d.request(.post, "/v1/rules/backtest", token: d.adminToken, body: body))
        #expect(again["changedDayCount"] == 0 && again["daysUnderOtherRules"] == 0)
    }
}

extension BacktestTests {
    /// The process's user and system CPU time in clock ticks (`/proc/PID/stat`, fields 14 and 15).
    static func cpuTicks(_ pid: Int32) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, so utime (14) and stime (15) are at 11 and 12.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
        return user + system
    }
}
