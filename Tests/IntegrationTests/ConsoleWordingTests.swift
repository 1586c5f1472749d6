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
}
