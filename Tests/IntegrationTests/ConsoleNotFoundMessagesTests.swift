import Foundation
import HTJSON
import Testing

/// A console address that names a patient, alert or proposal that does not exist (404), a page
/// that does not exist, and a form sent from another site (403) are refused in the page's
/// language (`DomainError.notFound`'s `missing`, worded by FieldMessages); the API's English
/// message is not shown there.
@Suite struct ConsoleNotFoundMessagesTests {
    static let german = ConsoleFieldMessagesTests.german

    /// A fresh daemon with nurse `name` signed in to the console.
    static func signedInNurse(_ name: String) throws -> (TestDaemon, ConsoleClient) {
        let d = try TestDaemon()
        _ = try Study.staff(d, name, role: "nurse")
        try ConsoleClient.setPassword(d, name, ImportConsoleTests.password)
        let c = ConsoleClient(d)
        try c.signIn(name, ImportConsoleTests.password)
        return (d, c)
    }

    @Test func aGermanConsoleSaysInGermanThatAPatientAlertOrProposalDoesNotExist() throws {
        let (d, c) = try Self.signedInNurse("nurse.nf")
        defer { d.stop() }

        let patient = try c.get("/console/patients/NOBODY-7", headers: Self.german)
        #expect(patient.status == 404 && patient.text.contains("Es gibt keinen Patienten mit der Studien-ID NOBODY-7."), "\(patient.text)")
        _ = try c.get("/console/alerts", headers: Self.german)
        let cases = [("/console/alerts/99/acknowledge", ["back": "inbox"], "Einen Alarm 99 gibt es nicht; es wurde nichts geändert."),
                     ("/console/alerts/99/resolve", ["note": "Na 136", "back": "inbox"], "Einen Alarm 99 gibt es nicht; es wurde nichts geändert."),
                     ("/console/proposals/98/confirm", ["note": "Labor"], "Einen Vorschlag 98 gibt es nicht; es wurde nichts geändert."),
                     ("/console/patients/NOBODY-7/labs", ["sodium": "135"], "Es gibt keinen Patienten mit der Studien-ID NOBODY-7.")]
        for (path, form, words) in cases {
            let r = try c.post(path, form, headers: Self.german)
            #expect(r.status == 404 && r.text.contains("role=\"alert\">\(words)</p>"), "\(path): \(r.status) \(r.text.suffix(1500))")
            #expect(!r.text.contains("no alert") && !r.text.contains("no proposal") && !r.text.contains("no patient"), "\(path): not the API's English")
        }
        let english = try c.post("/console/alerts/99/acknowledge", ["back": "inbox"])
        #expect(english.status == 404 && english.text.contains("There is no alert 99; nothing was changed."))
        let page = try c.get("/console/nirgends", headers: Self.german)
        #expect(page.status == 404 && page.text.contains("Die Seite /console/nirgends gibt es nicht."), "\(page.text)")
    }

    @Test func aGermanFormFromAnotherSiteIsRefusedInGerman() throws {
        let (d, c) = try Self.signedInNurse("nurse.xs")
        defer { d.stop() }
        _ = try c.get("/console/alerts", headers: Self.german)
        let r = try c.post("/console/alerts/1/acknowledge", ["back": "inbox"], headers: Self.german + [("Origin", "https://evil.example")])
        #expect(r.status == 403 && r.text.contains("Dieses Formular kam von einer anderen Website (https://evil.example); es wurde nichts geändert."),
                "\(r.text)")
        #expect(!r.text.contains("was sent from another site"))
    }
}
