import Foundation
import Testing
import HTJSON

/// docs/clinical-rules.md §3: a day whose data holds nothing a rule reads is not evaluated — not
/// green — over real HTTP against the real daemon: the patient's answer, `/v1/me/today`, the web
/// check-in, the staff API, the console and the report all show it without a level.
@Suite struct UnevaluatedDayTests {
    static let password = "correct horse battery"

    @Test func aSubmissionOfOnlyStepsAndAnEveningWeightIsAnsweredAndShownWithoutALevel() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "NOEVAL-1")
        let today = Study.date(0)
        let r = try d.request(.put, "/v1/me/days/\(today)", token: token, body: ["steps": 4200, "weightEveningKg": 80.5])
        #expect(r.status == 200, "\(r.text)")
        #expect(r["level"] == .null && r["instructions"] == .null && r["reasons"] == [], "\(r.text)")
        guard case .string(let version)? = r["rulesVersion"], !version.isEmpty else { throw TestFailure("no rules version: \(r.text)") }

        let me = try d.request(.get, "/v1/me/today", token: token)
        #expect(me["level"] == .null && me["instructions"] == .null, "\(me.text)")
        let staff = try d.request(.get, "/v1/patients/NOEVAL-1", token: d.adminToken)
        #expect(staff["level"] == .null, "\(staff.text.prefix(400))")
        guard case .array(let timeline)? = staff["timeline"], case .object(let day)? = timeline.last,
              case .object(let evaluation)? = day["evaluation"] else { throw TestFailure("no stored evaluation: \(staff.text)") }
        #expect(evaluation["level"] == .null && evaluation["rulesVersion"] == .string(version))
        #expect(try d.request(.get, "/v1/alerts?open=true", token: d.adminToken).json == [])

        _ = try Study.staff(d, "nina", role: "nurse")
        try ConsoleClient.setPassword(d, "nina", Self.password)
        let console = ConsoleClient(d)
        let board = try console.signIn("nina", Self.password)
        #expect(board.text.contains("data-study-id=\"NOEVAL-1\" data-level=\"none\""), "\(board.text.prefix(2000))")
        let page = try console.get("/console/patients/NOEVAL-1")
        #expect(page.text.contains("not evaluated: no value a rule reads") && !page.text.contains(">GREEN<"))

        let pdf = try PopplerReport(try ReportScenario.report(d, "NOEVAL-1").body)
        let text = try pdf.text()
        #expect(text.contains("not evaluated: no value a rule reads"), "\(text.suffix(1500))")
        #expect(!text.contains("Green"))
    }

    /// A patient who sent something today is not told that nothing arrived: the web check-in says
    /// the data is there but gives no light yet, and asks for the morning check.
    @Test func theWebCheckInSaysTodaysDataArrivedButGivesNoLightYetInBothLanguages() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "NOEVAL-4")
        let c = ConsoleClient(d)
        c.cookie = "ht_patient=\(token)"
        let light = "<section class=\"light light-none\" id=\"light\" data-level=\"none\"><span class=\"word\">"
        let before = try c.get("/app/", headers: [("Accept-Language", "en-GB")])
        #expect(before.status == 200 && before.text.contains(light + "NO CHECK YET</span><p>No check yet today."), "\(before.text.prefix(1500))")

        #expect(try d.request(.put, "/v1/me/days/\(Study.date(0))", token: token, body: ["steps": 4200])["level"] == .null)
        for (header, word, text) in [("en-GB", "NO LIGHT YET", "Data for today has arrived, but nothing in it gives a traffic light yet. Please do your morning check."),
                                     ("de-DE", "NOCH KEINE AMPEL",
                                      "Ihre heutigen Daten sind angekommen, aber daraus ergibt sich noch keine Ampel. Bitte machen Sie Ihren Morgen-Check.")] {
            let page = try c.get("/app/", headers: [("Accept-Language", header)])
            #expect(page.status == 200 && page.text.contains(light + "\(word)</span><p>\(text)</p></section>"), "\(header): \(page.text.prefix(1500))")
            #expect(!page.text.contains("NO CHECK YET") && !page.text.contains("NOCH KEIN CHECK"), "\(header)")
        }
    }

    @Test func aGreenDayWhoseOnlyScoredValueIsClearedLosesItsLevel() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "NOEVAL-2")
        let day = Study.date(-1)
        #expect(try d.request(.put, "/v1/me/days/\(day)", token: token, body: ["weightMorningKg": 80.0])["level"] == "green")
        let cleared = try d.request(.put, "/v1/me/days/\(day)", token: token, body: ["weightMorningKg": nil, "steps": 900])
        #expect(cleared.status == 200 && cleared["level"] == .null, "\(cleared.text)")
        let days = try d.request(.get, "/v1/me/days?from=\(day)&to=\(day)", token: token)
        guard case .array(let list) = days.json, case .object(let first)? = list.first,
              case .object(let evaluation)? = first["evaluation"] else { throw TestFailure("no day: \(days.text)") }
        #expect(evaluation["level"] == .null)
    }

    @Test func anEmptySubmissionIsNotEvaluatedButAFluidIntakeUnderTheLimitIsGreen() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "NOEVAL-3")
        let day = Study.date(-1)
        #expect(try d.request(.put, "/v1/me/days/\(day)", token: token, body: [:])["level"] == .null)
        #expect(try d.request(.put, "/v1/me/days/\(day)", token: token, body: ["fluidIntakeMl": 1200])["level"] == "green")
    }
}
