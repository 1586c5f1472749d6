import Foundation
import Testing
import HTJSON

/// What staff read on the console, over the real daemon: reason codes under their labels, and
/// who did something by name rather than by the internal actor string.
@Suite struct ConsoleWordingTests {
    @Test func aReasonIsShownWithItsLabelOnThePatientPageAndInTheInboxInEitherLanguage() throws {
        let (d, _, c) = try WardBoardTests.signedIn()
        let token = try Study.enrollAndActivate(d, "WRD-1", surgeryDaysAgo: 12)
        try ExportScenario.expect(d.request(.put, "/v1/me/days/\(Study.date(-1))", token: token,
                                            body: ["weightMorningKg": 82.0, "fluidIntakeMl": 2000]), 200, level: "yellow")
        let page = try c.get("/console/patients/WRD-1")
        #expect(page.text.contains("<li>weight gain <code>weight_gain_pct</code>"), "the day table and the alert")
        let inbox = try c.get("/console/alerts")
        #expect(inbox.text.contains("<li>weight gain <code>weight_gain_pct</code>"), "the inbox")
        let german = try c.get("/console/patients/WRD-1", headers: [("Accept-Language", "de")])
        #expect(german.text.contains("<li>Gewichtszunahme <code>weight_gain_pct</code>"))
    }

    @Test func whoAcknowledgedAndResolvedAnAlertIsShownByTheirStaffName() throws {
        let (d, _, c) = try WardBoardTests.signedIn()
        let token = try Study.enrollAndActivate(d, "WHO-1", surgeryDaysAgo: 12)
        try ExportScenario.expect(d.request(.put, "/v1/me/days/\(Study.date(-1))", token: token,
                                            body: ["emergencySymptoms": ["drowsiness"]]), 200, level: "red")
        guard case .array(let open) = try d.request(.get, "/v1/alerts?open=true", token: d.adminToken).json,
              case .object(let alert)? = open.first, case .number(let id)? = alert["id"] else { throw TestFailure("no open alert") }
        _ = try c.get("/console/alerts")
        #expect(try c.post("/console/alerts/\(Int(id))/acknowledge", ["note": "called", "back": "inbox"]).status == 303)
        _ = try c.get("/console/alerts")
        #expect(try c.post("/console/alerts/\(Int(id))/resolve", ["note": "seen in clinic", "back": "inbox"]).status == 303)
        let page = try c.get("/console/patients/WHO-1")
        let cells = page.text.components(separatedBy: "<br>nurse1<br>").count - 1
        #expect(cells == 2 && !page.text.contains("staff:nurse1"), "acknowledged and resolved by nurse1")
    }
}
