import Foundation
import Testing
import HTJSON

/// Managing patients from the console over real HTTP against the daemon (docs/product.md, third
/// round, C): an enrolment whose code page is shown once and not cached and whose code activates
/// the app, a day corrected with its reason in the audit trail, and the refusals a viewer and a
/// post without its form token meet, with nothing written.
@Suite struct ConsoleManageTests {
    @Test func aNurseEnrolsOverHTTPAndTheCodeShownOnceActivatesTheApp() throws {
        let s = try ConsoleTests.scenario()
        let c = ConsoleClient(s.d)
        try c.signIn("-ward", ConsoleTests.password)
        _ = try c.get("/console/enrolment")
        let r = try c.post("/console/enrolment", ["studyId": "WEB-1", "surgeryDate": Study.date(-2), "age": "58", "sex": "male",
                                                  "bmi": "27,4", "baselineWeightKg": "81", "webOnly": "1"])
        #expect(r.status == 303 && r.headers["location"] == "/console/patients/WEB-1/code", "\(r.status) \(r.text.suffix(2000))")
        let page = try c.get("/console/patients/WEB-1/code")
        #expect(page.status == 200 && page.headers["cache-control"] == "no-store")
        guard let mark = page.text.range(of: "id=\"activation-code\">") else { Issue.record("no code: \(page.text.suffix(2000))"); return }
        let code = String(page.text[mark.upperBound...].prefix { $0 != "<" })
        #expect(try c.get("/console/patients/WEB-1/code").status == 410, "shown once")
        let activated = try s.d.request(.post, "/v1/activate", body: ["studyId": "WEB-1", "code": .string(code)])
        #expect(activated.status == 200, "\(activated.text)")
        let stored = try s.d.request(.get, "/v1/patients/WEB-1", token: s.d.adminToken).text
        #expect(stored.contains("\"bmi\":27.4") && stored.contains("\"webOnly\":true") && stored.contains("\"enrolledBy\":\"staff:-ward\""))
    }

    @Test func aCorrectionOverHTTPIsStoredEvaluatedAndAuditedWithItsReason() throws {
        let (s, c, before) = try ConsoleTests.nurseOnTheGreenPatientsPage()
        _ = try c.get("/console/patients/EXP-G/manage")
        let day = Study.date(-1)
        let refused = try c.post("/console/patients/EXP-G/days", ["date": day, "field": "fluidIntakeMl", "value": "-5"],
                                 headers: [("Accept-Language", "de")])
        #expect(refused.status == 400 && refused.text.contains("id=\"correct-value-error\">Bitte geben Sie einen Wert von 0 bis 10000 ein."))
        #expect(refused.text.contains("id=\"correct-reason-error\">Bitte füllen Sie dieses Feld aus."))
        #expect(try s.d.request(.get, "/v1/patients/EXP-G", token: s.d.adminToken).text == before, "nothing stored")
        let r = try c.post("/console/patients/EXP-G/days", ["date": day, "field": "fluidIntakeMl", "value": "1400",
                                                            "reason": "phoned in by the patient"])
        #expect(r.status == 303 && r.headers["location"] == "/console/patients/EXP-G?done=day#days")
        #expect(try s.d.request(.get, "/v1/patients/EXP-G", token: s.d.adminToken).text.contains("\"fluidIntakeMl\":1400"))
        let audit = try s.d.request(.get, "/v1/audit?subject=EXP-G", token: s.d.adminToken).text
        #expect(audit.contains("\"action\":\"day.correct\"") && audit.contains("\"reason\":\"phoned in by the patient\""))
    }

    @Test func aViewerAndAPostWithoutItsTokenAreRefusedAndNothingChanges() throws {
        let s = try ConsoleTests.scenario()
        let viewer = ConsoleClient(s.d)
        try viewer.signIn("reader", ConsoleTests.password)
        #expect(try viewer.get("/console/patients/EXP-G/manage").status == 403)
        #expect(try viewer.get("/console/enrolment").status == 403)
        #expect(!(try viewer.get("/console/").text.contains("/console/enrolment")))
        #expect(try viewer.post("/console/patients/EXP-G/withdrawal", ["reason": "viewer"]).status == 403)
        let nurse = ConsoleClient(s.d)
        try nurse.signIn("-ward", ConsoleTests.password)
        _ = try nurse.get("/console/patients/EXP-G/manage")
        #expect(try nurse.post("/console/patients/EXP-G/withdrawal", ["reason": "no token"], csrf: false).status == 403)
        let stored = try s.d.request(.get, "/v1/patients/EXP-G", token: s.d.adminToken).text
        #expect(stored.contains("\"withdrawn\":false"), "not withdrawn")
    }
}
