import Foundation
import HTJSON
import Testing

/// The console's list of pending proposals (docs/product.md, "Imports"): the stored value beside
/// the proposed one, a conflict marked and confirmed only with the override box, decisions by
/// nurses (with the CSRF token), none for viewers.
@Suite struct ImportConsoleTests {
    static let password = "correct horse battery"

    /// Patient `id` with an Apple Health import of the day before yesterday pending (its morning
    /// weight in conflict: the patient entered 80 kg since), and nurse `nurse` with a console
    /// password; returns the patient's token and the weight's and steps' proposal ids.
    static func pendingImport(_ d: TestDaemon, _ id: String, nurse: String) throws -> (patient: String, weight: Double, steps: Double) {
        let patient = try Study.enrollAndActivate(d, id)
        let token = try Study.staff(d, nurse, role: "nurse")
        try ConsoleClient.setPassword(d, nurse, Self.password)
        let day = Study.date(-2)
        let r = try d.request(.post, "/v1/patients/\(id)/imports/apple-health", token: token,
                              raw: Array(ImportFlowTests.export(day).utf8), contentType: "application/xml")
        #expect(r.status == 200, "\(r.text)")
        try d.request(.put, "/v1/me/days/\(day)", token: patient, body: ["weightMorningKg": 80.0])
        let listed = try ImportFlowTests.pending(d, token, id)
        let weight = try #require(listed.first { $0["field"] == "weightMorningKg" }.flatMap(ImportFlowTests.id))
        let steps = try #require(listed.first { $0["field"] == "steps" }.flatMap(ImportFlowTests.id))
        return (patient, weight, steps)
    }

    @Test func pendingProposalsAreListedAndDecidedInTheConsole() throws {
        let d = try TestDaemon()
        defer { d.stop() }
        let (patient, weight, steps) = try Self.pendingImport(d, "IMP-CON-1", nurse: "nurse.con")
        _ = try Study.staff(d, "viewer.con", role: "viewer")
        try ConsoleClient.setPassword(d, "viewer.con", Self.password)
        let day = Study.date(-2)

        let viewer = ConsoleClient(d)
        try viewer.signIn("viewer.con", Self.password)
        let seen = try viewer.get("/console/proposals")
        #expect(seen.status == 200 && seen.text.contains("proposal-\(Int(weight))"))
        #expect(!seen.text.contains("action=\"/console/proposals/"))

        let c = ConsoleClient(d)
        try c.signIn("nurse.con", Self.password)
        let page = try c.get("/console/proposals")
        #expect(page.text.contains("id=\"proposal-\(Int(weight))\" data-conflict=\"true\""), "\(page.text.prefix(600))")
        #expect(page.text.contains("68.04") && page.text.contains(">80</strong>"))
        #expect(try c.post("/console/proposals/\(Int(steps))/reject", ["note": "watch off"], csrf: false).status == 403)
        let refused = try c.post("/console/proposals/\(Int(weight))/confirm", ["note": "scale"])
        #expect(refused.status == 409 && refused.text.contains("override"))
        #expect(try c.post("/console/proposals/\(Int(weight))/confirm", ["note": "scale", "override": "true"]).status == 303)
        #expect(try c.post("/console/proposals/\(Int(steps))/reject", ["note": "watch off"]).status == 303)
        #expect(try c.get("/console/proposals").text.contains("No proposals are waiting."))
        // Sent again (a second tab, a colleague): refused, and said so although its form is gone.
        let again = try c.post("/console/proposals/\(Int(steps))/reject", ["note": "watch off"])
        #expect(again.status == 409 && again.text.contains("role=\"alert\">Proposal \(Int(steps)) is already rejected; nothing was changed.</p>"),
                "\(again.text.suffix(800))")
        let days = try d.request(.get, "/v1/me/days?from=\(day)&to=\(day)", token: patient)
        #expect(days.text.contains("\"weightMorningKg\":68.04") && !days.text.contains("\"steps\":3300"), "\(days.text)")
    }
}
