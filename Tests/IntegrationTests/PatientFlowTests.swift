import Foundation
import Testing
import HTJSON

/// The patient loop over real HTTP against the real daemon: activate, submit, merge, evaluate.
@Suite struct PatientFlowTests {
    @Test func aMorningCheckIsStoredEvaluatedAndAnsweredWithItsLight() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "FLOW-1")
        let day = Study.date(-1)  // POD 5: the critical window
        let r = try d.request(.put, "/v1/me/days/\(day)", token: token, body: [
            "weightMorningKg": 81.2, "symptoms": [Study.symptom("m1", day, headache: 1, vas: 6)]])
        #expect(r.status == 200, "\(r.text)")
        #expect(r["level"] == "yellow")          // +1.5 % reaches 1.35 % inside the window
        #expect(r["pod"] == 5)
        #expect(r["morningCheckComplete"] == true)
        #expect(r["eveningCheckComplete"] == false)
        guard case .object(let instructions)? = r["instructions"], case .string(let text)? = instructions["text"] else {
            Issue.record("no instructions"); return
        }
        #expect(text.contains("not a validated medical device"))
        let de = try d.request(.put, "/v1/me/days/\(day)", token: token, body: [:], headers: [("Accept-Language", "de-DE,de;q=0.9")])
        if case .object(let i)? = de["instructions"] { #expect(i["language"] == "de") }
    }

    @Test func mergeRulesSetClearKeepAndGrow() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "FLOW-2")
        let day = Study.date(-2)
        try d.request(.put, "/v1/me/days/\(day)", token: token, body: [
            "weightMorningKg": 80.0, "fluidIntakeMl": 900, "emergencySymptoms": ["drowsiness"]])
        // Absent keeps, null clears, a later [] removes no emergency symptom, a value sets.
        let r = try d.request(.put, "/v1/me/days/\(day)", token: token, body: [
            "fluidIntakeMl": nil, "emergencySymptoms": [], "urineSG": 1.012])
        #expect(r.status == 200)
        #expect(r["level"] == "red")   // drowsiness still there
        let days = try d.request(.get, "/v1/me/days?from=\(day)&to=\(day)", token: token)
        guard case .array(let list) = days.json, case .object(let first)? = list.first, case .object(let data)? = first["data"] else {
            Issue.record("no day: \(days.text)"); return
        }
        #expect(data["weightMorningKg"] == 80.0)
        #expect(data["fluidIntakeMl"] == .null)
        #expect(data["urineSG"] == 1.012)
        #expect(data["emergencySymptoms"] == ["drowsiness"])
    }

    @Test func aRetriedSubmissionNeverDuplicatesItems() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "FLOW-3")
        let day = Study.date(-1)
        let body: JSONValue = ["symptoms": [Study.symptom("s1", day)], "reactionTests": [
            ["id": "r1", "time": .string(Study.time(day, "09:00")), "medianMs": 610, "meanMs": 620, "errors": 0]]]
        for _ in 0..<3 { #expect(try d.request(.put, "/v1/me/days/\(day)", token: token, body: body).status == 200) }
        // The same id with new values replaces the item (a correction), not a second one.
        try d.request(.put, "/v1/me/days/\(day)", token: token, body: ["symptoms": [Study.symptom("s1", day, headache: 2, vas: 5)]])
        let days = try d.request(.get, "/v1/me/days", token: token)
        guard case .array(let list) = days.json, case .object(let first)? = list.first, case .object(let data)? = first["data"],
              case .array(let symptoms)? = data["symptoms"], case .array(let tests)? = data["reactionTests"] else {
            Issue.record("unexpected: \(days.text)"); return
        }
        #expect(symptoms.count == 1 && tests.count == 1)
        if case .object(let s) = symptoms[0] { #expect(s["headache"] == 2) }
    }

    @Test func aChangeToADayReevaluatesTheNextDay() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "FLOW-4", surgeryDaysAgo: 12)
        let d1 = Study.date(-2), d2 = Study.date(-1)
        try d.request(.put, "/v1/me/days/\(d2)", token: token, body: ["weightMorningKg": 80.5])
        let before = try d.request(.get, "/v1/me/days?from=\(d2)&to=\(d2)", token: token)
        #expect(before.text.contains("\"level\":\"green\""))
        // Yesterday's weight 79.4 makes today's +1.1 kg a 24-hour gain: D+1 is re-evaluated.
        try d.request(.put, "/v1/me/days/\(d1)", token: token, body: ["weightMorningKg": 79.4])
        let after = try d.request(.get, "/v1/me/days?from=\(d2)&to=\(d2)", token: token)
        #expect(after.text.contains("weight_gain_24h"), "\(after.text)")
    }

    @Test func aLabValueIsEvaluatedAndCanBeDeletedWithAReason() throws {
        let d = try TestDaemon()
        _ = try Study.enrollAndActivate(d, "FLOW-5")
        let add = try d.request(.post, "/v1/patients/FLOW-5/labs", token: d.adminToken, body: ["sodium": 128])
        #expect(add.status == 201)
        #expect(add.text.contains("\"level\":\"red\""))
        guard case .number(let id)? = add["labId"] else { Issue.record("no lab id"); return }
        let del = try d.request(.post, "/v1/patients/FLOW-5/labs/\(Int(id))/deletion", token: d.adminToken, body: ["reason": "wrong patient"])
        #expect(del.status == 200)
        let again = try d.request(.post, "/v1/patients/FLOW-5/labs/\(Int(id))/deletion", token: d.adminToken, body: ["reason": "again"])
        #expect(again.status == 404)
        // The deleted lab value was the day's only data: the day is re-evaluated and no longer has a
        // level (not evaluated, docs/clinical-rules.md §3), not green; the lab's red alert shows
        // until staff resolve it.
        let show = try d.request(.get, "/v1/patients/FLOW-5", token: d.adminToken)
        #expect(show["level"] == "red" && show["openAlerts"] == 1, "the lab's red alert is open until staff resolve it: \(show.text.prefix(300))")
        let alerts = try d.request(.get, "/v1/alerts", token: d.adminToken)
        guard case .array(let list) = alerts.json, case .object(let alert)? = list.first, case .number(let alertId)? = alert["id"] else {
            Issue.record("no alert: \(alerts.text)"); return
        }
        #expect(try d.request(.post, "/v1/alerts/\(Int(alertId))/resolution", token: d.adminToken, body: ["note": "lab was wrong"]).status == 200)
        #expect(try d.request(.get, "/v1/patients/FLOW-5", token: d.adminToken)["level"] == .null,
                "once resolved: the re-evaluated day holds nothing a rule reads, so no level")
        let audit = try d.request(.get, "/v1/audit?subject=FLOW-5&limit=100", token: d.adminToken)
        #expect(audit.text.contains("lab.delete") && audit.text.contains("wrong patient"))
    }

    @Test func todayCarriesTasksAndTheReminderPlan() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "FLOW-6")
        let r = try d.request(.get, "/v1/me/today", token: token)
        #expect(r.status == 200)
        #expect(r["date"] == .string(Study.date(0)))
        #expect(r["monitoringActive"] == true)
        #expect(r["apiVersion"] == "1")
        guard case .object(let reminders)? = r["reminders"], case .array(let plan)? = reminders["plan"] else {
            Issue.record("no plan: \(r.text)"); return
        }
        #expect(!plan.isEmpty)
        #expect(reminders["intensity"] == "elevated")   // POD 6: inside the critical window
    }

    @Test func withdrawalAndReissueStopEarlierTokens() throws {
        let d = try TestDaemon()
        let first = try Study.enrollAndActivate(d, "FLOW-7")
        #expect(try d.request(.get, "/v1/me/today", token: first).status == 200, "used (and remembered) before the reissue")
        let reissue = try d.request(.post, "/v1/patients/FLOW-7/activation", token: d.adminToken)
        #expect(reissue.status == 200)
        #expect(try d.request(.get, "/v1/me/today", token: first).status == 401)
        guard case .string(let code)? = reissue["activationCode"] else { return }
        let second = try d.request(.post, "/v1/activate", body: ["studyId": "flow-7", "code": .string(code.lowercased())])
        #expect(second.status == 200)
        guard case .string(let token)? = second["token"] else { return }
        #expect(try d.request(.get, "/v1/me/today", token: token).status == 200)
        let w = try d.request(.post, "/v1/patients/FLOW-7/withdrawal", token: d.adminToken, body: ["reason": "patient request"])
        #expect(w.status == 200)
        #expect(try d.request(.get, "/v1/me/today", token: token).status == 401)
    }

    @Test func activationCodesAreSingleUseAndLockAfterFiveFailures() throws {
        let d = try TestDaemon()
        let e = try d.request(.post, "/v1/patients", token: d.adminToken, body: Study.profile("ACT-1"))
        guard case .string(let code)? = e["activationCode"] else { Issue.record("no code"); return }
        for _ in 0..<4 {
            #expect(try d.request(.post, "/v1/activate", body: ["studyId": "ACT-1", "code": "ZZZZZ-ZZZZZ"]).status == 401)
        }
        let fifth = try d.request(.post, "/v1/activate", body: ["studyId": "ACT-1", "code": "ZZZZZ-ZZZZZ"])
        #expect(fifth.status == 429)
        #expect(fifth.headers["retry-after"] != nil)
        // Even the right code is refused while locked.
        #expect(try d.request(.post, "/v1/activate", body: ["studyId": "ACT-1", "code": .string(code)]).status == 429)
        // A nurse's reissue clears the lock; the new code works once.
        let reissue = try d.request(.post, "/v1/patients/ACT-1/activation", token: d.adminToken)
        guard case .string(let fresh)? = reissue["activationCode"] else { return }
        #expect(try d.request(.post, "/v1/activate", body: ["studyId": "ACT-1", "code": .string(fresh)]).status == 200)
        #expect(try d.request(.post, "/v1/activate", body: ["studyId": "ACT-1", "code": .string(fresh)]).status == 401)
    }

    @Test func aProfileUpdateReevaluatesStoredDays() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "FLOW-8")
        let day = Study.date(-3)  // POD 3, f = 1.0 for low/medium risk
        try d.request(.put, "/v1/me/days/\(day)", token: token, body: ["weightMorningKg": 81.0])   // +1.25 %: green
        #expect(try d.request(.get, "/v1/patients/FLOW-8", token: d.adminToken)["level"] == "green")
        // Craniopharyngioma makes the patient high risk (f = 0.8): 1.25 % reaches 1.2 %.
        let u = try d.request(.patch, "/v1/patients/FLOW-8", token: d.adminToken, body: ["histology": "craniopharyngioma"])
        #expect(u.status == 200, "\(u.text)")
        #expect(u["riskClass"] == "high")
        #expect(u["level"] == "yellow")
        #expect(u["monitoringEnds"] == .string(Study.date(15)))   // extended to POD 21
        let audit = try d.request(.get, "/v1/audit?subject=FLOW-8&limit=100", token: d.adminToken)
        #expect(audit.text.contains("\"histology\":{\"before\":null,\"after\":\"craniopharyngioma\"}"), "\(audit.text)")
    }
}
