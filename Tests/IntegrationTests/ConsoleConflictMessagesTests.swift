import Foundation
import HTJSON
import Testing

/// A console action the record's state refuses (409: an alert acknowledged or resolved meanwhile,
/// a proposal decided meanwhile or outdated, a withdrawn patient) is explained in the page's
/// language, worded as the field messages are; the API's English message is not shown there.
@Suite struct ConsoleConflictMessagesTests {
    static let german = ConsoleFieldMessagesTests.german

    @Test func aGermanInboxSaysInGermanThatAnAlertIsAlreadyAcknowledgedOrResolved() throws {
        let s = try ConsoleTests.scenario()
        let c = ConsoleClient(s.d)
        try c.signIn("-ward", ConsoleTests.password)
        guard case .number(let open)? = s.alertB["id"], case .number(let resolved)? = s.alertA["id"] else {
            throw TestFailure("no alert ids")
        }
        _ = try c.get("/console/alerts", headers: Self.german)
        #expect(try c.post("/console/alerts/\(Int(open))/acknowledge", ["note": "angerufen", "back": "inbox"], headers: Self.german).status == 303)
        let cases = [("/console/alerts/\(Int(open))/acknowledge", ["back": "inbox"], "Alarm \(Int(open)) ist bereits bestätigt"),
                     ("/console/alerts/\(Int(resolved))/acknowledge", ["back": "inbox"], "Alarm \(Int(resolved)) ist bereits erledigt"),
                     ("/console/alerts/\(Int(resolved))/resolve", ["note": "Na 136", "back": "inbox"], "Alarm \(Int(resolved)) ist bereits erledigt")]
        for (path, form, words) in cases {
            let r = try c.post(path, form, headers: Self.german)
            #expect(r.status == 409 && r.text.contains("\(words); es wurde nichts geändert."), "\(path): \(r.status) \(r.text.suffix(1500))")
            #expect(!r.text.contains("is already"), "\(path): not the API's English")
        }
        let english = try c.post("/console/alerts/\(Int(resolved))/resolve", ["note": "Na 136", "back": "inbox"])
        #expect(english.status == 409 && english.text.contains("Alert \(Int(resolved)) is already resolved; nothing was changed."))
    }

    @Test func aGermanProposalsPageSaysInGermanWhyAProposalCannotBeDecided() throws {
        let d = try TestDaemon()
        defer { d.stop() }
        let id = "IMP-CON-DE"
        let pending = try ImportConsoleTests.pendingImport(d, id, nurse: "nurse.de")
        let (weight, steps) = (Int(pending.weight), Int(pending.steps))

        let c = ConsoleClient(d)
        try c.signIn("nurse.de", ImportConsoleTests.password)
        _ = try c.get("/console/proposals", headers: Self.german)
        // Outdated: the patient entered a weight since the import; the message sits at the override box.
        let outdated = try c.post("/console/proposals/\(weight)/confirm", ["note": "Waage"], headers: Self.german)
        #expect(outdated.status == 409 && outdated.text.contains("id=\"confirm-\(weight)-override-error\" role=\"alert\">"
                                                                + "Der gespeicherte Wert hat sich seit dem Import geändert."),
                "\(outdated.text.suffix(2000))")
        #expect(!outdated.text.contains("would replace"))
        // Decided meanwhile: its form is gone, the message stands above the list.
        #expect(try c.post("/console/proposals/\(steps)/reject", ["note": "Uhr ab"], headers: Self.german).status == 303)
        let again = try c.post("/console/proposals/\(steps)/reject", ["note": "Uhr ab"], headers: Self.german)
        #expect(again.status == 409 && again.text.contains("role=\"alert\">Vorschlag \(steps) ist bereits abgelehnt; es wurde nichts geändert.</p>"),
                "\(again.text.suffix(2000))")
        #expect(!again.text.contains("is already"))
        // Withdrawn since: nothing can be confirmed for the patient.
        #expect(try d.request(.post, "/v1/patients/\(id)/withdrawal", token: d.adminToken,
                              body: ["reason": "moved away", "date": .string(Study.date(0))]).status == 200)
        let withdrawn = try c.post("/console/proposals/\(weight)/confirm", ["note": "Waage", "override": "true"], headers: Self.german)
        #expect(withdrawn.status == 409 && withdrawn.text.contains("Der Patient ist aus der Studie ausgeschieden; für ihn kann nichts mehr geändert werden."),
                "\(withdrawn.text.suffix(2000))")
        #expect(!withdrawn.text.contains("the patient is withdrawn"))
    }
}
