import Foundation
import Testing
import HTJSON

/// What a yellow light promises about the clinic's call, per site (docs/product.md, settled W
/// and S): a call only when the patient's site has yellow tiers (`escalation.sites.CODE.yellow`,
/// else the study's), and `app.clinicHours` read on the site's clock (its time zone, else
/// `studyTimeZone`) — in the day answer, `/v1/me/today` and the web check-in alike. Real daemon,
/// real clock: the expected sentence is computed here from the moment of the request.
@Suite struct SiteClinicCallTests {
    /// `main` has no zone, `b` none (the study's, UTC), `c` is UTC+12: at any moment exactly one
    /// of b and c is inside `Mo-Su 00:00-12:00`.
    static func dataDirectory() throws -> URL {
        let d = try TestDaemon()
        for (code, zone) in [("b", nil), ("c", "Etc/GMT-12")] as [(String, String?)] {
            var body = JSONObject([("code", .string(code)), ("name", .string("Site \(code)"))])
            if let zone { body["timeZone"] = .string(zone) }
            let r = try d.request(.post, "/v1/sites", token: d.adminToken, body: .object(body))
            guard r.status == 201 else { throw TestFailure("site add \(code): \(r.text)") }
        }
        d.stop()
        return d.dataDir
    }

    /// True when the clinic is open (before 12:00) at `moment` in the zone `offsetHours` east of UTC.
    static func open(_ moment: Date, offsetHours: Int) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offsetHours * 3600)!
        return calendar.component(.hour, from: moment) < 12
    }

    static func instructions(_ r: TestDaemon.Response) -> String {
        Hooks.string(Hooks.object(r["instructions"])?["text"]) ?? ""
    }

    /// The sentence a site whose clock is `offsetHours` east of UTC promises at `moment`.
    static func promise(_ moment: Date, offsetHours: Int) -> String {
        open(moment, offsetHours: offsetHours) ? "The clinic will call you today, until 12:00." : "The clinic will call you on the next working day"
    }

    @Test func aYellowLightPromisesACallOnlyWithTheSitesYellowTiersAndWithinHoursOnTheSitesClock() throws {
        var config = try HookConfig()
        config.webhook("ward", url: "http://127.0.0.1:9/ward", sites: ["b", "c"])
        config.studyTimeZone = "UTC"
        config.app = ["clinicHours": "Mo-Su 00:00-12:00", "clinicPhone": "+49 30 555 0100"]
        // The study has no yellow tiers; b and c have their own.
        config.siteLadders["b"] = (red: nil, yellow: [(0, ["ward"])])
        config.siteLadders["c"] = (red: nil, yellow: [(0, ["ward"])])
        let rig = try HookRig(config, dataDir: try Self.dataDirectory())
        let tokens = try ["main", "b", "c"].map { try rig.patient("CALL-\($0.uppercased())", [("site", .string($0))]) }
        let today = Study.date(0)

        let before = Date()
        let answers = try tokens.map { try rig.putDay($0, today, ["weightMorningKg": 82.0]) }
        let todays = try tokens.map { try rig.daemon.request(.get, "/v1/me/today", token: $0) }
        let after = Date()
        #expect(answers.allSatisfy { Hooks.string($0["level"]) == "yellow" }, "\(answers.map(\.text))")
        #expect(todays.allSatisfy { $0.status == 200 }, "\(todays.map(\.text))")

        let main = answers.map(Self.instructions)[0], mainToday = Self.instructions(todays[0])
        #expect(main.contains("Please call the clinic today.") && !main.contains("The clinic will call"), "no yellow tier at main: \(main)")
        #expect(mainToday.contains("Please call the clinic today."), "\(mainToday)")
        for (i, offset) in [(1, 0), (2, 12)] {
            let expected = Set([Self.promise(before, offsetHours: offset), Self.promise(after, offsetHours: offset)])
            for text in [Self.instructions(answers[i]), Self.instructions(todays[i])] {
                #expect(expected.contains { text.contains($0) } && !text.contains("Please call the clinic today."),
                        "site \(i == 1 ? "b (UTC)" : "c (UTC+12)") expects \(expected): \(text)")
            }
        }
        // The web check-in says the same as the API for the site-c patient.
        let page = try rig.daemon.request(.get, "/app/", headers: [("Cookie", "ht_patient=\(tokens[2])")])
        let expected = Set([Self.promise(before, offsetHours: 12), Self.promise(Date(), offsetHours: 12)])
        #expect(page.status == 200 && expected.contains { page.text.contains($0) }, "\(expected): \(page.text)")
    }
}
