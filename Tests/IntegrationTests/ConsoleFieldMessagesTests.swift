import Foundation
import Testing
import HTJSON

/// A refused console form on a German page says what is wrong in German, next to the field; the
/// API's English message (for API clients) is not shown there.
@Suite struct ConsoleFieldMessagesTests {
    static let german: [(String, String)] = [("Accept-Language", "de-DE,de;q=0.9")]

    @Test func aGermanLabFormExplainsARefusedSodiumAndTimeInGerman() throws {
        let (s, c, before) = try ConsoleTests.nurseOnTheGreenPatientsPage()
        let range = try c.post("/console/patients/EXP-G/labs", ["sodium": "99"], headers: Self.german)
        #expect(range.status == 400 && range.text.contains("Bitte geben Sie einen Wert von 100 bis 180 ein."), "\(range.text.suffix(3000))")
        #expect(!range.text.contains("is outside"), "not the API's English")
        let text = try c.post("/console/patients/EXP-G/labs", ["sodium": "viel"], headers: Self.german)
        #expect(text.status == 400 && text.text.contains("Bitte geben Sie eine Zahl ein"))
        let future = try c.post("/console/patients/EXP-G/labs", ["sodium": "135", "time": "2099-01-01T08:00"], headers: Self.german)
        #expect(future.status == 400 && future.text.contains("Dieser Zeitpunkt liegt in der Zukunft."))
        #expect(!future.text.contains("the lab time is in the future"))
        let surgery = Study.date(-ExportScenario.surgeryDaysAgo)
        let parts = surgery.split(separator: "-")
        let early = try c.post("/console/patients/EXP-G/labs", ["sodium": "135", "time": "\(Study.date(-ExportScenario.surgeryDaysAgo - 3))T08:00"],
                               headers: Self.german)
        #expect(early.status == 400 && early.text.contains("Dieser Zeitpunkt liegt vor dem Operationsdatum, \(parts[2]).\(parts[1]).\(parts[0])."),
                "\(early.text.suffix(3000))")
        #expect(try s.d.request(.get, "/v1/patients/EXP-G", token: s.d.adminToken).text == before, "nothing stored")
    }

    @Test func aNoteTooLongIsRefusedInThePagesLanguageAndTheAlertStaysOpen() throws {
        let s = try ConsoleTests.scenario()
        let c = ConsoleClient(s.d)
        try c.signIn("-ward", ConsoleTests.password)
        guard case .number(let id)? = s.alertB["id"] else { throw TestFailure("no alert id") }
        _ = try c.get("/console/alerts")
        let long = String(repeating: "x", count: 1001)
        let de = try c.post("/console/alerts/\(Int(id))/acknowledge", ["note": long, "back": "inbox"], headers: Self.german)
        #expect(de.status == 400 && de.text.contains("Bitte schreiben Sie höchstens 1000 Zeichen."), "\(de.status)")
        #expect(!de.text.contains("characters"))
        let en = try c.post("/console/alerts/\(Int(id))/acknowledge", ["note": long, "back": "inbox"])
        #expect(en.status == 400 && en.text.contains("Please write at most 1000 characters."))
        let alert = try s.d.request(.get, "/v1/alerts?open=true", token: s.d.adminToken).text
        #expect(alert.contains("\"state\":\"open\""), "still open")
    }
}
