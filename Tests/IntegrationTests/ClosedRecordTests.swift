import Foundation
import Testing
import HTJSON

/// Security review, findings 2 and 5: a record the study no longer follows, or whose dates a
/// change would shift, refuses the change and writes nothing. Lab values for a withdrawn patient
/// (they opened a red alert and paged on-call for a patient who had left) and after the
/// monitoring window are refused, by the API and at the console's form; a time-zone change once
/// days or labs are stored is refused naming `timeZone`.
@Suite struct ClosedRecordTests {
    static func withdraw(_ d: TestDaemon, _ id: String) throws {
        let r = try d.request(.post, "/v1/patients/\(id)/withdrawal", token: d.adminToken, body: ["reason": "moved away"])
        guard r.status == 200 else { throw TestFailure("withdraw: \(r.status) \(r.text)") }
    }

    /// What a lab value would have left behind: lab rows, alerts, audit rows, queued REDCap rows.
    static func traces(_ d: TestDaemon, _ id: String) throws -> (labs: Int, alerts: Int, labAudit: Int) {
        let p = try d.request(.get, "/v1/patients/\(id)", token: d.adminToken)
        var labs = 0
        if case .array(let days)? = p["timeline"] {
            for case .object(let day) in days {
                if case .object(let data)? = day["data"], case .array(let l)? = data["labSodium"] { labs += l.count }
            }
        }
        let alerts = try d.request(.get, "/v1/alerts?limit=1000", token: d.adminToken)
        var alertCount = 0
        if case .array(let a) = alerts.json {
            alertCount = a.filter { if case .object(let o) = $0 { return o["studyId"] == .string(id) } else { return false } }.count
        }
        let trail = try d.request(.get, "/v1/audit?subject=\(id)&limit=1000", token: d.adminToken).text
        return (labs, alertCount, trail.components(separatedBy: "\"lab.add\"").count - 1)
    }

    @Test func aWithdrawnPatientsLabValuesCannotBeAddedOrDeletedAndNothingIsWritten() throws {
        let d = try TestDaemon()
        _ = try Study.enrollAndActivate(d, "WD-1")
        let added = try d.request(.post, "/v1/patients/WD-1/labs", token: d.adminToken, body: ["sodium": 138])
        #expect(added.status == 201, "\(added.text)")
        guard case .number(let labId)? = added["labId"] else { Issue.record("no labId: \(added.text)"); return }
        let day = Study.date(0)
        let put = try d.request(.put, "/v1/me/days/\(day)", token: try Study.enrollAndActivate(d, "WD-2"),
                                body: ["symptoms": .array([Study.symptom("m1", day)])])
        #expect(put.status == 200, "\(put.text)")
        try Self.withdraw(d, "WD-1")
        try Self.withdraw(d, "WD-2")
        let before = try Self.traces(d, "WD-1")

        let lab = try d.request(.post, "/v1/patients/WD-1/labs", token: d.adminToken, body: ["sodium": 118])
        #expect(lab.status == 409 && lab.errorCode == "conflict" && lab.text.contains("withdrawn"), "\(lab.status) \(lab.text)")
        let deletion = try d.request(.post, "/v1/patients/WD-1/labs/\(Int(labId))/deletion", token: d.adminToken,
                                     body: ["reason": "wrong patient"])
        #expect(deletion.status == 409 && deletion.errorCode == "conflict" && deletion.text.contains("withdrawn"), "\(deletion.text)")
        let item = try d.request(.post, "/v1/patients/WD-2/days/\(day)/symptoms/m1/deletion", token: d.adminToken,
                                 body: ["reason": "wrong entry"])
        #expect(item.status == 409 && item.errorCode == "conflict" && item.text.contains("withdrawn"), "\(item.text)")

        let correction = try d.request(.patch, "/v1/patients/WD-2/days/\(day)", token: d.adminToken, body: ["weightMorningKg": 81.0])
        #expect(correction.status == 409 && correction.errorCode == "conflict" && correction.text.contains("withdrawn"),
                "a correction takes the patient's submission path and keeps its 409: \(correction.text)")

        let after = try Self.traces(d, "WD-1")
        #expect(after.labs == before.labs && after.alerts == before.alerts && after.labAudit == before.labAudit,
                "nothing written: \(before) → \(after)")
        let stillThere = try d.request(.get, "/v1/patients/WD-2", token: d.adminToken).text
        #expect(stillThere.contains("\"m1\""), "the symptom entry is not deleted")
    }

    @Test func aLabDatedAfterTheMonitoringWindowIsRefusedNamingTheDate() throws {
        let d = try TestDaemon()
        // Operated 20 days ago: the window (POD 1–14) ended 6 days ago.
        _ = try Study.enrollAndActivate(d, "LATE-1", surgeryDaysAgo: 20)
        let late = try d.request(.post, "/v1/patients/LATE-1/labs", token: d.adminToken, body: ["sodium": 118])
        #expect(late.status == 400 && late.errorCode == "invalid_value" && late.errorField == "time", "\(late.text)")
        #expect(late.text.contains(Study.date(0)) && late.text.contains(Study.date(-6)), "names the date and the last day: \(late.text)")
        #expect(try Self.traces(d, "LATE-1").labs == 0 && Self.traces(d, "LATE-1").alerts == 0)
        let inside = try d.request(.post, "/v1/patients/LATE-1/labs", token: d.adminToken,
                                   body: ["sodium": 137, "time": .string(Study.time(Study.date(-10)))])
        #expect(inside.status == 201, "a value inside the window is still taken: \(inside.text)")
    }

    @Test func theConsoleLabFormSaysTheRefusalAtItsFieldInThePagesLanguage() throws {
        let d = try TestDaemon()
        _ = try Study.staff(d, "-ward", role: "nurse")
        try ConsoleClient.setPassword(d, "-ward", ConsoleTests.password)
        _ = try Study.enrollAndActivate(d, "WD-C")
        _ = try Study.enrollAndActivate(d, "LATE-C", surgeryDaysAgo: 20)
        try Self.withdraw(d, "WD-C")
        let c = ConsoleClient(d)
        try c.signIn("-ward", ConsoleTests.password)

        let german = [("Accept-Language", "de-DE,de;q=0.9")]
        _ = try c.get("/console/patients/WD-C", headers: german)
        let withdrawn = try c.post("/console/patients/WD-C/labs", ["sodium": "118"], headers: german)
        #expect(withdrawn.status == 409, "\(withdrawn.status)")
        #expect(withdrawn.text.contains("aus der Studie ausgeschieden"), "at the form, in German: \(withdrawn.text.prefix(400))")
        #expect(withdrawn.text.contains("value=\"118\""), "what was typed stays")

        _ = try c.get("/console/patients/LATE-C")
        let late = try c.post("/console/patients/LATE-C/labs", ["sodium": "118"])
        #expect(late.status == 400, "\(late.status)")
        #expect(late.text.contains("after the monitoring period"), "at the time field: \(late.text.prefix(400))")
        #expect(try Self.traces(d, "WD-C").labs == 0 && Self.traces(d, "LATE-C").labs == 0, "nothing stored")
    }

    @Test func theTimeZoneCannotChangeOnceDaysOrLabsAreStored() throws {
        let d = try TestDaemon()
        _ = try Study.enrollAndActivate(d, "TZ-1")
        let empty = try d.request(.patch, "/v1/patients/TZ-1", token: d.adminToken, body: ["timeZone": "Europe/London"])
        #expect(empty.status == 200, "no data yet: the zone may still be corrected: \(empty.text)")
        let lab = try d.request(.post, "/v1/patients/TZ-1/labs", token: d.adminToken, body: ["sodium": 138])
        #expect(lab.status == 201)
        let moved = try d.request(.patch, "/v1/patients/TZ-1", token: d.adminToken, body: ["timeZone": "Pacific/Honolulu"])
        #expect(moved.status == 409 && moved.errorCode == "conflict" && moved.errorField == "timeZone", "\(moved.text)")
        let profile = try d.request(.get, "/v1/patients/TZ-1", token: d.adminToken).text
        #expect(profile.contains("Europe/London") && !profile.contains("Honolulu"), "unchanged")
        let same = try d.request(.patch, "/v1/patients/TZ-1", token: d.adminToken, body: ["timeZone": "Europe/London", "age": 51])
        #expect(same.status == 200, "the same zone with another change is fine: \(same.text)")

        let token = try Study.enrollAndActivate(d, "TZ-2")
        let day = try d.request(.put, "/v1/me/days/\(Study.date(0))", token: token, body: ["weightMorningKg": 80.2])
        #expect(day.status == 200)
        let afterDay = try d.request(.patch, "/v1/patients/TZ-2", token: d.adminToken, body: ["timeZone": "Pacific/Honolulu"])
        #expect(afterDay.status == 409 && afterDay.errorField == "timeZone", "\(afterDay.text)")
    }
}
