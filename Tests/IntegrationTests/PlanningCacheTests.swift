import Foundation
import Testing
import HTJSON

/// A day submission is planned from the patient row and the days the daemon remembers
/// (`PatientCache`, `DayWindowCache`); what staff change in between must count from the
/// patient's next submission on, whether it lets the submission through or changes its merge.
@Suite struct PlanningCacheTests {
    /// The patient's time zone decides which date is "today"; staff correcting it changes which
    /// dates the next submission may name. Both the zone and the surgery date are fixed once data
    /// came in (a refused submission stores none, but it does plan, so the patient is cached).
    @Test func aCorrectedTimeZoneCountsForThePatientsNextSubmission() throws {
        func today(in zone: String) -> String {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: zone)!
            let c = calendar.dateComponents([.year, .month, .day], from: Date())
            return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        }
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "PLAN-1", [("timeZone", "Pacific/Pago_Pago")])   // UTC−11
        // Already tomorrow (or later) on Kiritimati (UTC+14): in the future for this patient…
        let ahead = today(in: "Pacific/Kiritimati")
        let before = try d.request(.put, "/v1/me/days/\(ahead)", token: token, body: ["fluidIntakeMl": 900])
        #expect(before.status == 400 && before.errorField == "date", "\(before.text)")
        let moved = try d.request(.patch, "/v1/patients/PLAN-1", token: d.adminToken, body: ["timeZone": "Pacific/Kiritimati"])
        #expect(moved.status == 200, "\(moved.text)")
        // …and today once the patient is known to live there.
        let after = try d.request(.put, "/v1/me/days/\(ahead)", token: token, body: ["fluidIntakeMl": 900])
        #expect(after.status == 200, "\(after.text)")
    }

    @Test func aStaffCorrectionOfTheDayIsWhatThePatientsNextSubmissionMergesInto() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "PLAN-2")
        let day = Study.date(-1)
        #expect(try d.request(.put, "/v1/me/days/\(day)", token: token, body: ["weightMorningKg": 80.0]).status == 200)
        #expect(try d.request(.put, "/v1/me/days/\(day)", token: token, body: ["fluidIntakeMl": 900]).status == 200)
        let nurse = try Study.staff(d, "n.plan", role: "nurse")
        let corrected = try d.request(.patch, "/v1/patients/PLAN-2/days/\(day)", token: nurse, body: ["weightMorningKg": 84.0])
        #expect(corrected.status == 200, "\(corrected.text)")
        let next = try d.request(.put, "/v1/me/days/\(day)", token: token, body: ["urineSG": 1.010])
        #expect(next.status == 200, "\(next.text)")
        let days = try d.request(.get, "/v1/me/days?from=\(day)&to=\(day)", token: token)
        guard case .array(let list) = days.json, case .object(let first)? = list.first, case .object(let data)? = first["data"] else {
            Issue.record("no day: \(days.text)"); return
        }
        #expect(data["weightMorningKg"] == 84.0, "the staff correction stays")
        #expect(data["fluidIntakeMl"] == 900.0 && data["urineSG"] == 1.010)
    }
}
