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

    @Test func aLabProposalForAFullDayIsRefusedAtItsFormInGermanWithTheLabFormsWording() throws {
        let config = try ConfigDirectory(server: #"{"limits": {"itemsPerList": 2}}"#)
        let d = try TestDaemon(configFile: config.serverFile)
        defer { d.stop() }
        let id = "IMP-FULL"
        _ = try Study.enrollAndActivate(d, id)
        let nurse = try Study.staff(d, "nurse.full", role: "nurse")
        try ConsoleClient.setPassword(d, "nurse.full", Self.password)
        let day = Study.date(-1)
        for clock in ["07:00", "08:00"] {
            let lab = try d.request(.post, "/v1/patients/\(id)/labs", token: nurse, body: ["sodium": 136, "time": .string(Study.time(day, clock))])
            #expect(lab.status == 201 || lab.status == 200, "\(lab.text)")
        }
        #expect(try ImportFlowTests.fhir(d, nurse, ImportFlowTests.bundle([ImportFlowTests.sodium("full-1", id, date: day)])).status == 200)
        let proposal = try #require(try ImportFlowTests.pending(d, nurse, id).first.flatMap(ImportFlowTests.id))

        let c = ConsoleClient(d)
        try c.signIn("nurse.full", Self.password)
        let german = ConsoleConflictMessagesTests.german
        _ = try c.get("/console/proposals", headers: german)
        let full = "Dieser Tag hat schon 2 Laborwerte; es wurde nichts gespeichert."
        let confirmed = try c.post("/console/proposals/\(Int(proposal))/confirm", ["note": "Labor"], headers: german)
        #expect(confirmed.status == 409 && confirmed.text.contains("id=\"confirm-\(Int(proposal))-note-error\" role=\"alert\">\(full)</p>"),
                "\(confirmed.status) \(confirmed.text.suffix(2000))")
        #expect(!confirmed.text.contains("a day holds at most"), "not the API's English")
        // The lab form says it the same way.
        _ = try c.get("/console/patients/\(id)", headers: german)
        let typed = try c.post("/console/patients/\(id)/labs", ["sodium": "135", "time": "\(day)T09:00"], headers: german)
        #expect(typed.status == 409 && typed.text.contains("id=\"lab-sodium-error\">\(full)</p>"), "\(typed.status) \(typed.text.suffix(3000))")
        #expect(try ImportFlowTests.pending(d, nurse, id).count == 1, "the proposal is still pending")
    }
}
