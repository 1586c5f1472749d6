import Foundation
import Testing
import HTJSON

/// The outcome report over real HTTP against the real daemon (docs/product.md, third round, O):
/// a labelled synthetic cohort (`OutcomeCohort`) whose expected figures are worked out from its
/// labels in the test, checked exactly: episodes, warnings and lead times, sensitivity and its
/// Wilson interval, alert burden, positive predictive value, contacts, by risk class; then the
/// CLI's `--json` and `--csv`, and the minutes to acknowledgement against the alerts CSV.
@Suite(.serialized) struct OutcomeReportTests {
    struct Scenario: Sendable {
        let d: TestDaemon
        let nurse: String
        let report: JSONObject

        init() throws {
            let d = try TestDaemon()
            self.d = d
            nurse = try Study.staff(d, "olga.nurse", role: "nurse", allSites: true)
            try OutcomeCohort.build(d, nurse: nurse)
            let r = try d.request(.get, "/v1/outcomes/report", token: nurse)
            guard r.status == 200, case .object(let o) = r.json else { throw TestFailure("report: \(r.status) \(r.text)") }
            report = o
        }
    }

    static let scenario = Result { try Scenario() }
    func scenario() throws -> Scenario { try Self.scenario.get() }

    static func cohort(_ report: JSONObject, _ name: String) throws -> JSONObject {
        guard case .array(let cohorts)? = report["cohorts"],
              case .object(let c)? = cohorts.first(where: { if case .object(let o) = $0 { o["cohort"] == .string(name) } else { false } })
        else { throw TestFailure("no cohort \(name)") }
        return c
    }

    static func at(_ o: JSONObject, _ path: String...) -> JSONValue? {
        var v: JSONValue? = .object(o)
        for key in path { if case .object(let inner)? = v { v = inner[key] } else { return nil } }
        return v
    }

    static func rounded(_ v: Double?, _ places: Double) -> JSONValue {
        guard let v else { return .null }
        let scale = pow(10, places)
        return .double((v * scale).rounded() / scale)
    }

    /// A share and its interval as the report writes them (4 decimals), from counts.
    static func share(_ x: Int, _ n: Int) -> [String: JSONValue] {
        guard n > 0 else { return ["count": .int(x), "total": .int(n), "value": .null, "low": .null, "high": .null] }
        let (low, high) = OutcomeCohort.wilson(x, n)
        return ["count": .int(x), "total": .int(n), "value": rounded(Double(x) / Double(n), 4), "low": rounded(low, 4),
                "high": rounded(high, 4)]
    }

    static func same(_ v: JSONValue?, _ expected: [String: JSONValue]) -> Bool {
        guard case .object(let o)? = v else { return false }
        return expected.allSatisfy { o[$0.key] == $0.value }
    }

    @Test func theCohortsRiskClassesAreTheOnesTheLabelsSay() throws {
        let s = try scenario()
        let list = try s.d.request(.get, "/v1/patients", token: s.nurse)
        guard case .array(let patients) = list.json else { throw TestFailure(list.text) }
        for p in OutcomeCohort.patients {
            let row = patients.first { if case .object(let o) = $0 { o["studyId"] == .string(p.studyId) } else { false } }
            guard case .object(let o)? = row else { throw TestFailure("no \(p.studyId)") }
            #expect(o["riskClass"] == .string(p.high ? "high" : "low"), "\(p.studyId)")
        }
    }

    @Test(arguments: [("all", nil), ("low", false), ("high", true), ("medium", nil as Bool?)])
    func everyFigureOfEachRiskClassIsWhatTheLabelsGive(name: String, high: Bool?) throws {
        let s = try scenario()
        try Self.check(try Self.cohort(s.report, name), name == "medium" ? OutcomeCohort.Expected() : OutcomeCohort.expected(high: high), name)
    }

    /// The report's `sites`: for each site, the same cohorts over that site's patients alone.
    @Test(arguments: ["a", "b"])
    func everyFigureOfEachSiteAndRiskClassIsWhatTheLabelsGive(site: String) throws {
        let s = try scenario()
        let entry = try Self.site(s.report, site)
        for (name, high) in [("all", nil), ("low", false), ("high", true)] as [(String, Bool?)] {
            try Self.check(try Self.cohort(entry, name), OutcomeCohort.expected(high: high, site: site), "\(site)/\(name)")
        }
        try Self.check(try Self.cohort(entry, "medium"), OutcomeCohort.Expected(), "\(site)/medium")
        // `main` holds none of the cohort: listed, with nothing counted.
        #expect(try Self.cohort(try Self.site(s.report, "main"), "all")["patients"] == 0)
    }

    static func site(_ report: JSONObject, _ code: String) throws -> JSONObject {
        guard case .array(let sites)? = report["sites"],
              case .object(let o)? = sites.first(where: { if case .object(let o) = $0 { o["site"] == .string(code) } else { false } })
        else { throw TestFailure("no site \(code) in \(report["sites"] ?? .null)") }
        return o
    }

    static func siteCodes(_ report: JSONObject) -> [String] {
        guard case .array(let sites)? = report["sites"] else { return [] }
        return sites.compactMap { if case .object(let o) = $0, case .string(let code)? = o["site"] { code } else { nil } }
    }

    /// The study IDs named anywhere in a report's text.
    static func studyIds(in text: String) -> Set<String> {
        Set(OutcomeCohort.patients.map(\.studyId).filter { text.contains($0) })
    }

    @Test func aSiteFilterAndASiteBoundNurseCountOnlyThatSitesPatients() throws {
        let s = try scenario()
        let a = OutcomeCohort.patients.filter { $0.site == "a" }.map(\.studyId)
        let b = OutcomeCohort.patients.filter { $0.site == "b" }.map(\.studyId)
        let filtered = try s.d.request(.get, "/v1/outcomes/report?site=a", token: s.nurse)
        guard filtered.status == 200, case .object(let fa) = filtered.json else { throw TestFailure(filtered.text) }
        try Self.check(try Self.cohort(fa, "all"), OutcomeCohort.expected(high: nil, site: "a"), "?site=a")
        #expect(Self.siteCodes(fa) == ["a"] && Self.studyIds(in: filtered.text).isSubset(of: a), "\(filtered.text)")

        let nurseB = try Study.staff(s.d, "bea.nurse", role: "nurse", sites: ["b"])
        let own = try s.d.request(.get, "/v1/outcomes/report", token: nurseB)
        guard own.status == 200, case .object(let ob) = own.json else { throw TestFailure(own.text) }
        try Self.check(try Self.cohort(ob, "all"), OutcomeCohort.expected(high: nil, site: "b"), "nurse of b")
        #expect(Self.siteCodes(ob) == ["b"] && Self.studyIds(in: own.text).isDisjoint(with: a), "\(own.text)")
        // Another site's filter reaches nobody: nothing counted, no site listed.
        let other = try s.d.request(.get, "/v1/outcomes/report?site=a", token: nurseB)
        guard other.status == 200, case .object(let oa) = other.json else { throw TestFailure(other.text) }
        #expect(try Self.cohort(oa, "all")["patients"] == 0 && Self.siteCodes(oa).isEmpty && Self.studyIds(in: other.text).isEmpty)
        let unknown = try s.d.request(.get, "/v1/outcomes/report?site=nowhere", token: s.nurse)
        #expect(unknown.status == 400 && unknown.errorField == "site", "\(unknown.text)")

        let cli = try CLIRunner.run(["outcomes", "report", "--site", "b", "--csv"], server: s.d.baseURL, token: s.nurse)
        let eb = OutcomeCohort.expected(high: nil, site: "b")
        #expect(cli.status == 0 && cli.stdout.contains(",all,episodes,\(eb.episodes)\n") && cli.stdout.contains("b,all,episodes,\(eb.episodes)\n")
                && !cli.stdout.contains("\na,"), "\(cli.stdout.prefix(300)) \(cli.stderr)")
    }

    /// Every figure of a cohort's JSON against the figures worked out from the labels.
    static func check(_ c: JSONObject, _ e: OutcomeCohort.Expected, _ name: String) throws {
        #expect(c["patients"] == .int(e.patients) && c["patientDays"] == .int(e.patientDays) && c["episodes"] == .int(e.episodes),
                "\(name): \(JSONSerializer.string(.object(c)))")
        #expect(Self.same(Self.at(c, "yellowOrRed", "sensitivity"), Self.share(e.warned, e.episodes)), "\(name)")
        #expect(Self.same(Self.at(c, "red", "sensitivity"), Self.share(e.warnedRed, e.episodes)), "\(name)")
        #expect(Self.at(c, "yellowOrRed", "medianLeadDays") == Self.rounded(OutcomeCohort.Expected.median(e.leads), 1))
        #expect(Self.at(c, "red", "medianLeadDays") == Self.rounded(OutcomeCohort.Expected.median(e.redLeads), 1))
        let histogram: JSONValue = .array((1...OutcomeCohort.lookback).map { lead in .int(e.leads.filter { $0 == lead }.count) })
        #expect(Self.at(c, "yellowOrRed", "leadHistogram") == histogram, "\(name)")
        #expect(Self.at(c, "alerts", "byLevel", "yellow") == .int(e.yellowAlerts) && Self.at(c, "alerts", "byLevel", "red") == .int(e.redAlerts))
        #expect(Self.at(c, "alerts", "byKind", "evaluation") == .int(e.yellowAlerts + e.redAlerts))
        #expect(Self.at(c, "alerts", "byKind", "missing_checkin") == .int(0) && Self.at(c, "alerts", "byKind", "no_data_2d") == .int(0))
        let per100 = { (n: Int) -> JSONValue in e.patientDays == 0 ? .null : Self.rounded(Double(n) * 100 / Double(e.patientDays), 2) }
        #expect(Self.at(c, "alerts", "per100PatientDays", "byLevel", "yellow") == per100(e.yellowAlerts))
        #expect(Self.at(c, "alerts", "per100PatientDays", "byLevel", "red") == per100(e.redAlerts))
        #expect(Self.same(Self.at(c, "positivePredictiveValue"), Self.share(e.followed, e.matured)), "\(name)")
        #expect(c["contactsPer100PatientDays"] == per100(e.contacts), "\(name)")
    }

    @Test func theWholeCohortsNumbersAreTheOnesWorkedOutByHand() throws {
        // The same labels read by a person: 5 episodes (OC-02's two low labs are one; OC-08's
        // deleted lab is none), 3 warned (leads 3, 5, 2 days), 2 by red (1, 2), 5 alerts of which
        // 3 are at least 7 days old and 2 of those were followed by an episode.
        let c = try Self.cohort(try scenario().report, "all")
        #expect(c["episodes"] == 5 && Self.at(c, "yellowOrRed", "sensitivity", "count") == 3 && Self.at(c, "red", "sensitivity", "count") == 2)
        #expect(Self.at(c, "yellowOrRed", "medianLeadDays") == 3 && Self.at(c, "red", "medianLeadDays") == 1.5)
        #expect(Self.at(c, "positivePredictiveValue", "count") == 2 && Self.at(c, "positivePredictiveValue", "total") == 3)
        // Wilson 95 % for 3 of 5, as published tables give it: 0.2307–0.8824.
        #expect(Self.at(c, "yellowOrRed", "sensitivity", "low") == 0.2307 && Self.at(c, "yellowOrRed", "sensitivity", "high") == 0.8824)
    }

    @Test func alertsPer100PatientDaysByPODCountEachAlertOnItsFirstDay() throws {
        let c = try Self.cohort(try scenario().report, "all")
        let e = OutcomeCohort.expected(high: nil)
        guard case .array(let rows)? = c["alertsByPOD"] else { throw TestFailure("no alertsByPOD") }
        #expect(rows.count == OutcomeCohort.today)
        for (i, row) in rows.enumerated() {
            let pod = i + 1, alerts = e.alertPODs[pod] ?? 0
            #expect(Self.same(row, ["pod": .int(pod), "patientDays": .int(OutcomeCohort.patients.count), "alerts": .int(alerts),
                                    "per100PatientDays": Self.rounded(Double(alerts) * 100 / Double(OutcomeCohort.patients.count), 2)]),
                    "POD \(pod)")
        }
    }

    @Test func theEpisodesListEachEpisodeWithItsFirstWarningDays() throws {
        let s = try scenario()
        guard case .array(let episodes)? = s.report["episodes"] else { throw TestFailure("no episodes") }
        let seen = episodes.compactMap { v -> String? in
            guard case .object(let o) = v, case .string(let id)? = o["studyId"], case .number(let pod)? = o["pod"] else { return nil }
            let lead = o["yellowOrRedLeadDays"].flatMap { if case .number(let n) = $0 { Int(n) } else { nil } }
            return "\(id)@\(Int(pod)):\(lead.map(String.init) ?? "-")"
        }
        #expect(seen.sorted() == ["OC-01@6:3", "OC-02@10:-", "OC-03@9:5", "OC-05@11:-", "OC-06@8:2"])
    }

    @Test func minutesToAcknowledgementAgreeWithTheAlertsCSV() throws {
        let s = try scenario()
        let (_, rows) = try RFC4180.table(try s.d.download("/v1/export/alerts.csv", token: s.nurse).body)
        let minutes = rows.compactMap { $0["alert_min_to_ack"] }.filter { !$0.isEmpty }.compactMap(Double.init)
        #expect(minutes.count == 1)
        let c = try Self.cohort(s.report, "all")
        #expect(Self.at(c, "ackMinutes", "n") == .int(minutes.count) && Self.at(c, "ackMinutes", "median") == .double(minutes[0]))
    }

    @Test func theCLIPrintsTheReportAsJSONAndAsOneCSVLinePerFigure() throws {
        let s = try scenario()
        let csv = try CLIRunner.run(["outcomes", "report", "--csv"], server: s.d.baseURL, token: s.nurse)
        #expect(csv.status == 0 && csv.stdout.hasPrefix("site,cohort,figure,value\n"), "\(csv.stdout.prefix(200)) \(csv.stderr)")
        for line in [",all,episodes,5", ",all,yellow_or_red_sensitivity_count,3", ",all,yellow_or_red_median_lead_days,3",
                     ",all,ppv_total,3", ",high,patients,2", ",medium,episodes,0", "a,all,episodes,3", "b,all,episodes,2", "main,all,patients,0"] {
            #expect(csv.stdout.contains(line + "\n"), "\(line)")
        }
        let json = try CLIRunner.run(["outcomes", "report", "--json"], server: s.d.baseURL, token: s.nurse)
        let parsed = try JSONParser.parse(Array(json.stdout.utf8))
        #expect(json.status == 0 && parsed != .null)
        #expect(json.stdout.contains("\"leadHistogram\""))
        let both = try CLIRunner.run(["outcomes", "report", "--csv", "--json"], server: s.d.baseURL, token: s.nurse)
        #expect(both.status == 64)
        let bad = try s.d.request(.get, "/v1/outcomes/report?from=2026-02-30", token: s.nurse)
        #expect(bad.status == 400 && bad.errorField == "from")
    }

    @Test func aDateRangeCountsOnlyTheEpisodesAlertsAndDaysInsideIt() throws {
        let s = try scenario()
        // PODs 1–7: episodes OC-01 (6) only; 7 patient-days each.
        let r = try s.d.request(.get, "/v1/outcomes/report?from=\(OutcomeCohort.date(pod: 1))&to=\(OutcomeCohort.date(pod: 7))", token: s.nurse)
        guard case .object(let o) = r.json else { throw TestFailure(r.text) }
        let c = try Self.cohort(o, "all")
        #expect(c["episodes"] == 1 && c["patientDays"] == .int(7 * OutcomeCohort.patients.count))
        #expect(Self.at(c, "alerts", "opened") == 5, "every alert's first day is POD 1–6")
    }
}
