import Foundation
import Testing
import HTJSON

/// Outcomes over real HTTP against the real daemon (docs/product.md, third round, O): recorded by
/// staff (API and the CLI) and derived from lab values, withdrawn with their lab value, refused
/// with the field named and nothing written, in `outcomes.csv`, the clinical report (pdftotext)
/// and REDCap's repeating `outcome_log` through the emulator.
@Suite(.serialized) struct OutcomeTests {
    static func outcomes(_ d: TestDaemon, _ id: String, token: String) throws -> [JSONObject] {
        let r = try d.request(.get, "/v1/patients/\(id)/outcomes", token: token)
        guard case .array(let list) = r.json else { throw TestFailure("outcomes: \(r.text)") }
        return list.compactMap { if case .object(let o) = $0 { o } else { nil } }
    }

    static func lab(_ d: TestDaemon, _ id: String, _ sodium: Double, daysAgo: Int, token: String) throws -> Int {
        let r = try d.request(.post, "/v1/patients/\(id)/labs", token: token,
                              body: ["sodium": .double(sodium), "time": .string(Study.time(Study.date(-daysAgo), "07:30"))])
        guard r.status == 201, case .number(let labId)? = r["labId"] else { throw TestFailure("lab: \(r.text)") }
        return Int(labId)
    }

    @Test func aStaffOutcomeIsStoredAuditedListedAndRefusedInputWritesNothing() throws {
        let d = try TestDaemon()
        let nurse = try Study.staff(d, "olga", role: "nurse")
        let viewer = try Study.staff(d, "vera", role: "viewer")
        _ = try Study.enrollAndActivate(d, "OT-A")                      // surgery 6 days ago: monitoring POD 1 … 14
        let r = try d.request(.post, "/v1/patients/OT-A/outcomes", token: nurse,
                              body: ["kind": "readmission", "date": .string(Study.date(-1)), "sodium": 131.5, "note": "readmitted overnight"])
        #expect(r.status == 201 && r["kind"] == "readmission" && r["pod"] == 5 && r["source"] == "staff" && r["status"] == "recorded",
                "\(r.text)")
        #expect(r["recordedBy"] == "staff:olga" && r["sodium"] == 131.5)
        let bad: [(JSONValue, String)] = [
            (["kind": "fall", "date": .string(Study.date(-1))], "kind"),
            (["kind": "other", "date": .string(Study.date(-45))], "date"),           // POD −39: 40 days before POD 1
            (["kind": "other", "date": .string(Study.date(40))], "date"),             // after POD 14 + 30
            (["kind": "other", "date": "2026-02-30"], "date"),
            (["kind": "hyponatremia", "date": .string(Study.date(-1)), "sodium": 99.5], "sodium"),
            (["kind": "hyponatremia", "date": .string(Study.date(-1)), "sodium": 181], "sodium"),
            (["kind": "other"], "date"),
            (["kind": "other", "date": .string(Study.date(-1)), "note": .string(String(repeating: "x", count: 1001))], "note"),
            (["kind": "other", "date": .string(Study.date(-1)), "extra": 1], "extra"),
        ]
        for (body, field) in bad {
            let refused = try d.request(.post, "/v1/patients/OT-A/outcomes", token: nurse, body: body)
            #expect(refused.status == 400 && refused.errorField == field, "\(field): \(refused.text)")
        }
        #expect(try d.request(.post, "/v1/patients/OT-A/outcomes", token: viewer, body: ["kind": "other", "date": .string(Study.date(0))]).status == 403)
        #expect(try d.request(.post, "/v1/patients/NOBODY/outcomes", token: nurse, body: ["kind": "other", "date": .string(Study.date(0))]).status == 404)
        let listed = try Self.outcomes(d, "OT-A", token: viewer)
        #expect(listed.count == 1, "nothing refused was written")
        let audit = try d.request(.get, "/v1/audit?subject=OT-A", token: d.adminToken).text
        #expect(audit.components(separatedBy: "\"outcome.record\"").count - 1 == 1)
    }

    @Test func aLowLabSodiumIsOneEpisodeWithinThreeDaysAndDeletingItWithdrawsIt() throws {
        let d = try TestDaemon()
        let nurse = try Study.staff(d, "olga", role: "nurse")
        _ = try Study.enrollAndActivate(d, "OT-L", surgeryDaysAgo: 12)
        let first = try Self.lab(d, "OT-L", 133, daysAgo: 8, token: nurse)          // POD 4: an episode
        _ = try Self.lab(d, "OT-L", 132, daysAgo: 6, token: nurse)                  // POD 6: within 3 days, the same episode
        _ = try Self.lab(d, "OT-L", 135, daysAgo: 4, token: nurse)                  // POD 8: not below 135
        _ = try Self.lab(d, "OT-L", 134.9, daysAgo: 12, token: nurse)               // POD 0: not counted
        var outcomes = try Self.outcomes(d, "OT-L", token: nurse)
        #expect(outcomes.map { $0["pod"] } == [4] && outcomes.first?["source"] == "lab" && outcomes.first?["sodium"] == 133,
                "\(outcomes)")
        // A staff episode today makes a low lab back-dated to yesterday the same episode.
        _ = try d.request(.post, "/v1/patients/OT-L/outcomes", token: nurse, body: ["kind": "hyponatremia", "date": .string(Study.date(0))])
        _ = try Self.lab(d, "OT-L", 130, daysAgo: 1, token: nurse)                  // POD 11
        #expect(try Self.outcomes(d, "OT-L", token: nurse).count == 2)
        // Deleting the lab withdraws its outcome; the POD 6 lab it covered is now an episode of its own.
        let del = try d.request(.post, "/v1/patients/OT-L/labs/\(first)/deletion", token: nurse, body: ["reason": "haemolysed sample"])
        #expect(del.status == 200, "\(del.text)")
        outcomes = try Self.outcomes(d, "OT-L", token: nurse)
        let summary = outcomes.map { o in ["pod", "source", "status"].map { o[$0].map { JSONSerializer.string($0) } ?? "?" }.joined(separator: ":") }
        #expect(summary == ["4:\"lab\":\"withdrawn\"", "6:\"lab\":\"recorded\"", "12:\"staff\":\"recorded\""], "\(summary)")
        let audit = try d.request(.get, "/v1/audit?subject=OT-L", token: d.adminToken).text
        #expect(audit.contains("\"outcome.withdraw\""))
    }

    /// Each edge of the lab rule (settled O): strictly below the threshold, from POD 1, one
    /// episode for a hyponatremia outcome exactly 3 days before or after (labs are back-dated)
    /// but a new one at 4 days, another kind of outcome nearby no obstacle, a withdrawn outcome
    /// none either; deleting the lab withdraws its outcome and leaves a covered neighbour alone
    /// while another episode still covers it.
    @Test func theLabRulesEdgesStrictlyBelowFromPOD1AndThreeDaysEitherSide() throws {
        let d = try TestDaemon()
        let nurse = try Study.staff(d, "olga", role: "nurse")
        _ = try Study.enrollAndActivate(d, "OT-E", surgeryDaysAgo: 20)
        func lab(_ sodium: Double, pod: Int) throws -> Int { try Self.lab(d, "OT-E", sodium, daysAgo: 20 - pod, token: nurse) }
        func recorded() throws -> [Int] {
            try Self.outcomes(d, "OT-E", token: nurse).filter { $0["kind"] == "hyponatremia" && $0["status"] == "recorded" }
                .compactMap { if case .number(let n)? = $0["pod"] { Int(n) } else { nil } }.sorted()
        }
        _ = try lab(120, pod: 0)                     // POD 0: the day of surgery, no episode
        _ = try lab(135, pod: 2)                     // not strictly below 135
        #expect(try recorded() == [])
        _ = try lab(134.9, pod: 10)                  // an episode
        _ = try lab(130, pod: 13)                    // 3 days after it: the same episode
        #expect(try recorded() == [10])
        let fourAfter = try lab(130, pod: 14)        // 4 days after: a new one
        #expect(try recorded() == [10, 14])
        _ = try lab(131, pod: 7)                     // back-dated, 3 days before POD 10: the same episode
        #expect(try recorded() == [10, 14])
        _ = try lab(131, pod: 6)                     // 4 days before: a new one
        #expect(try recorded() == [6, 10, 14])
        let other = try d.request(.post, "/v1/patients/OT-E/outcomes", token: nurse, body: ["kind": "ed_visit", "date": .string(Study.date(-1))])
        #expect(other.status == 201, "\(other.text)")
        _ = try lab(132, pod: 19)                    // an ED visit that day is no hyponatremia outcome
        #expect(try recorded() == [6, 10, 14, 19])

        // Deleting POD 14's lab withdraws its outcome; POD 13's low lab is still POD 10's episode.
        let del = try d.request(.post, "/v1/patients/OT-E/labs/\(fourAfter)/deletion", token: nurse, body: ["reason": "wrong patient"])
        #expect(del.status == 200, "\(del.text)")
        #expect(try recorded() == [6, 10, 19])
        let withdrawn = try Self.outcomes(d, "OT-E", token: nurse).filter { $0["status"] == "withdrawn" }
        #expect(withdrawn.count == 1 && withdrawn.first?["pod"] == 14 && withdrawn.first?["source"] == "lab", "\(withdrawn)")
        // A withdrawn outcome covers nothing: a low lab on POD 15 (1 day after it, 4 before POD 19) is an episode.
        _ = try lab(133, pod: 15)
        #expect(try recorded() == [6, 10, 15, 19])
    }

    @Test func theOutcomesCSVTheReportAndTheCLIShowEveryOutcome() throws {
        let d = try TestDaemon()
        let nurse = try Study.staff(d, "olga", role: "nurse")
        _ = try Study.enrollAndActivate(d, "OT-C", [("timeZone", "Europe/London")])
        _ = try Self.lab(d, "OT-C", 131, daysAgo: 2, token: nurse)
        let cli = try CLIRunner.run(["outcome", "OT-C", "--kind", "ed_visit", "--date", Study.date(-1), "--note", "=1+1 seen in ED"],
                                    server: d.baseURL, token: nurse)
        #expect(cli.status == 0 && cli.stdout.contains("Recorded outcome") && cli.stdout.contains("ed_visit"), "\(cli.stdout) \(cli.stderr)")
        let unknown = try CLIRunner.run(["outcome", "OT-C", "--kind", "fall", "--date", Study.date(-1)], server: d.baseURL, token: nurse)
        #expect(unknown.status == 64 && unknown.stderr.contains("--kind"))
        let outside = try CLIRunner.run(["outcome", "OT-C", "--kind", "other", "--date", Study.date(-60)], server: d.baseURL, token: nurse)
        #expect(outside.status == 1 && outside.stderr.contains("date"), "\(outside.stderr)")
        let listed = try CLIRunner.run(["outcomes", "list", "OT-C"], server: d.baseURL, token: nurse)
        #expect(listed.status == 0 && listed.stdout.contains("hyponatremia") && listed.stdout.contains("lab") && listed.stdout.contains("ed_visit"))

        let (header, rows) = try RFC4180.table(try d.download("/v1/export/outcomes.csv", token: nurse).body)
        #expect(header == ["record_id", "site", "outcome_id", "outcome_kind", "outcome_date", "outcome_pod", "outcome_sodium", "outcome_source",
                           "outcome_status", "outcome_note", "outcome_log_complete", "outcome_recorded_at", "outcome_recorded_by"])
        #expect(rows.map { $0["outcome_kind"] } == ["hyponatremia", "ed_visit"])
        #expect(rows.first?["outcome_sodium"] == "131.0" && rows.first?["outcome_source"] == "lab" && rows.first?["outcome_pod"] == "4")
        #expect(rows.last?["outcome_note"] == "=1+1 seen in ED" && rows.last?["outcome_recorded_by"] == "olga")
        let excel = String(decoding: try d.download("/v1/export/outcomes.csv?dialect=excel", token: nurse).body, as: UTF8.self)
        #expect(excel.contains("'=1+1 seen in ED"), "a note never runs as a formula")

        let english = try PopplerReport(try ReportScenario.report(d, "OT-C").body).text()
        for phrase in ["Outcomes", "hyponatremia", "from a lab value", "emergency department visit", "=1+1 seen in ED"] {
            #expect(english.contains(phrase), "\(phrase)")
        }
        let german = try PopplerReport(try ReportScenario.report(d, "OT-C", query: "?lang=de").body).text()
        #expect(german.contains("Ereignisse") && german.contains("Hyponatriämie") && german.contains("Notaufnahme"))
    }

    @Test func outcomeLogRowsReachREDCapAndAWithdrawalUpdatesTheirInstance() throws {
        let rig = try SyncRig()
        let id = "OT-R"
        _ = try Study.enrollAndActivate(rig.daemon, id, surgeryDaysAgo: 8)
        let labId = try Self.lab(rig.daemon, id, 130, daysAgo: 3, token: rig.admin)                     // POD 5: instance 1
        let staff = try rig.daemon.request(.post, "/v1/patients/\(id)/outcomes", token: rig.admin,
                                           body: ["kind": "readmission", "date": .string(Study.date(-1)), "note": "two nights"])
        #expect(staff.status == 201)
        try rig.waitUntilDrained()
        var log = try #require(try rig.emulator.records()[id]?.repeating["outcome_log"])
        #expect(log.keys.sorted() == [1, 2])
        #expect(log[1]?["outcome_kind"] == "hyponatremia" && log[1]?["outcome_pod"] == "5" && log[1]?["outcome_sodium"] == "130.0"
                && log[1]?["outcome_source"] == "lab" && log[1]?["outcome_status"] == "recorded", "\(String(describing: log[1]))")
        #expect(log[2]?["outcome_kind"] == "readmission" && log[2]?["outcome_note"] == "two nights" && log[2]?["outcome_date"] == Study.date(-1))
        let reconcile = try rig.reconcile()
        #expect(reconcile["inSync"] == true, "\(JSONSerializer.string(.object(reconcile)))")
        // (A deleted lab value's day row stays in REDCap, which cannot delete it: reconciled before.)
        _ = try rig.daemon.request(.post, "/v1/patients/\(id)/labs/\(labId)/deletion", token: rig.admin, body: ["reason": "wrong patient"])
        try rig.waitUntilDrained()
        log = try #require(try rig.emulator.records()[id]?.repeating["outcome_log"])
        #expect(log.keys.sorted() == [1, 2] && log[1]?["outcome_status"] == "withdrawn")
        let check = try rig.daemon.request(.get, "/v1/sync/check", token: rig.admin)
        #expect(check["ok"] == true, "\(check.text)")
    }
}
