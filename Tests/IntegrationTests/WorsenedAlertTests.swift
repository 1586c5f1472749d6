import Foundation
import Testing
import HTJSON

/// docs/product.md, "Alerts": a worsening (yellow → red, or a new red code) updates the same alert
/// and reopens it, so it needs acknowledging again; the earlier acknowledgement stays in the
/// history. Over real HTTP against the real daemon: the console and the PDF report say both.
@Suite struct WorsenedAlertTests {
    static let password = "correct horse battery"

    /// W-1 yellow on POD 5 (weight), acknowledged by nina with a note, then red (a seizure).
    static func acknowledgedThenWorsened() throws -> (d: TestDaemon, patient: String, nurse: String, console: ConsoleClient) {
        let d = try TestDaemon()
        let patient = try Study.enrollAndActivate(d, "W-1")
        let nurse = try Study.staff(d, "nina", role: "nurse")
        let day = Study.date(-1)
        #expect(try d.request(.put, "/v1/me/days/\(day)", token: patient, body: ["weightMorningKg": 81.5])["level"] == "yellow")
        #expect(try d.request(.post, "/v1/alerts/1/acknowledgement", token: nurse, body: ["note": "called back"]).status == 200)
        #expect(try d.request(.put, "/v1/me/days/\(day)", token: patient, body: ["emergencySymptoms": ["seizure"]])["level"] == "red")
        try ConsoleClient.setPassword(d, "nina", password)
        let console = ConsoleClient(d)
        try console.signIn("nina", password)
        return (d, patient, nurse, console)
    }

    static func alertRow(_ html: String) throws -> String {
        guard let start = html.range(of: "<tr id=\"alert-1\""), let end = html[start.upperBound...].range(of: "</tr>") else {
            throw TestFailure("no alert row: \(html.prefix(1500))")
        }
        return String(html[start.lowerBound..<end.upperBound])
    }

    @Test func aWorsenedAlertShowsItNeedsAcknowledgingAgainWithTheEarlierAcknowledgementKept() throws {
        let (d, _, _, console) = try Self.acknowledgedThenWorsened()
        for page in ["/console/patients/W-1", "/console/alerts"] {
            let row = try Self.alertRow(try console.get(page).text)
            #expect(row.contains("data-state=\"open\"") && row.contains("RED"), "\(page): \(row)")
            #expect(row.contains("needs acknowledging again: worsened "), "\(page): \(row)")
            #expect(row.contains("before the worsening: Yellow acknowledged ") && row.contains("by nina (called back)"),
                    "\(page): \(row)")
            #expect(row.contains("/console/alerts/1/acknowledge"), "the acknowledge form is offered again")
        }
        let text = try PopplerReport(try ReportScenario.report(d, "W-1").body).text()
        #expect(text.contains("not yet needs acknowledging again: worsened "), "\(text.suffix(800))")
        #expect(text.contains("before the worsening: Yellow acknowledged ") && text.contains("by nina"), "\(text.suffix(800))")
        let de = try PopplerReport(try ReportScenario.report(d, "W-1", query: "?lang=de").body).text()
        #expect(de.contains("erneut zu bestätigen: verschlechtert ") && de.contains("vor der Verschlechterung: Gelb bestätigt "),
                "\(de.suffix(800))")
    }

    @Test func acknowledgingTheWorsenedAlertShowsTheNewAcknowledgementBesideTheEarlierOne() throws {
        let (d, patient, _, console) = try Self.acknowledgedThenWorsened()
        let adam = try Study.staff(d, "adam", role: "nurse")
        #expect(try d.request(.post, "/v1/alerts/1/acknowledgement", token: adam, body: [:]).status == 200)
        var row = try Self.alertRow(try console.get("/console/patients/W-1").text)
        #expect(row.contains("data-state=\"acknowledged\"") && row.contains("adam") && !row.contains("staff:"), "\(row)")
        #expect(!row.contains("needs acknowledging again") && row.contains("before the worsening: Yellow acknowledged "), "\(row)")
        // A red code the alert did not have is a second worsening: adam's acknowledgement (of red) joins the history.
        let day = Study.date(-1)
        #expect(try d.request(.put, "/v1/me/days/\(day)", token: patient,
                              body: ["symptoms": [Study.symptom("m1", day, confusion: 1)]])["level"] == "red")
        row = try Self.alertRow(try console.get("/console/patients/W-1").text)
        #expect(row.contains("needs acknowledging again") && row.contains("before the worsening: Red acknowledged "), "\(row)")
        #expect(row.components(separatedBy: "before the worsening:").count - 1 == 2, "\(row)")
        let text = try PopplerReport(try ReportScenario.report(d, "W-1").body).text()
        #expect(text.contains("before the worsening: Red acknowledged ") && text.contains("by adam"), "\(text.suffix(800))")
    }
}
