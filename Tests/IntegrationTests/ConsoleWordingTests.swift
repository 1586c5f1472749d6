import Foundation
import Testing
import HTJSON

/// What staff read on the console, over the real daemon: reasons in clinical words with the code
/// as their title, and who did something by name rather than by the internal actor string.
@Suite struct ConsoleWordingTests {
    @Test func aReasonIsShownInClinicalWordsOnThePatientPageAndInTheInboxInEitherLanguage() throws {
        let (d, _, c) = try WardBoardTests.signedIn()
        let token = try Study.enrollAndActivate(d, "WRD-1", surgeryDaysAgo: 12)
        try ExportScenario.expect(d.request(.put, "/v1/me/days/\(Study.date(-1))", token: token,
                                            body: ["weightMorningKg": 82.0, "fluidIntakeMl": 2000]), 200, level: "yellow")
        let page = try c.get("/console/patients/WRD-1")
        // 82 kg against 80: +2.5 %; the 1,500 mL limit exceeded by 500 mL: +33.3 %.
        let weight = "<li title=\"weight_gain_pct\" data-code=\"weight_gain_pct\" data-level=\"yellow\">Weight +2.5 % above baseline (yellow from +"
        #expect(page.text.components(separatedBy: weight).count - 1 == 2, "the day table and the alert: \(page.text)")
        #expect(page.text.contains("Fluid intake 33.3 % over the limit (yellow from "), "\(page.text)")
        let inbox = try c.get("/console/alerts")
        #expect(inbox.text.contains(weight), "the inbox")
        let german = try c.get("/console/patients/WRD-1", headers: [("Accept-Language", "de")])
        #expect(german.text.contains("data-level=\"yellow\">Gewicht +2,5 % über dem Ausgangsgewicht (Gelb ab +"), "\(german.text)")
        #expect(!german.text.contains("\">yellow<") && !german.text.contains("(yellow"), "no English level word on a German page: \(german.text.components(separatedBy: "(yellow").dropFirst().map { $0.prefix(80) })")
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

    @Test func aGermanPageNamesTheRoleInGermanAndKeepsTheCodeAsItsTitle() throws {
        let (_, _, c) = try WardBoardTests.signedIn()   // the client keeps its daemon
        let german = try c.get("/console/", headers: [("Accept-Language", "de")])
        #expect(german.text.contains("(<span title=\"nurse\">Pflege</span>)"), "\(german.text.prefix(1500))")
        #expect(!german.text.contains("(nurse)"), "no English role word on a German page")
        let english = try c.get("/console/", headers: [("Accept-Language", "en")])
        #expect(english.text.contains("(<span title=\"nurse\">nurse</span>)"))
    }

    @Test func aGermanPatientPageWritesEveryDateAsGermanDoes() throws {
        let (d, _, c) = try WardBoardTests.signedIn()
        let token = try Study.enrollAndActivate(d, "DAT-1", surgeryDaysAgo: 12)
        try ExportScenario.expect(d.request(.put, "/v1/me/days/\(Study.date(-1))", token: token,
                                            body: ["emergencySymptoms": ["drowsiness"]]), 200, level: "red")
        _ = try c.post("/console/patients/DAT-1/contacts", ["outcome": "reached", "note": "called"])
        let german = try c.get("/console/patients/DAT-1", headers: [("Accept-Language", "de")])
        // What a reader sees: the text between the tags (attributes such as data-date stay ISO).
        let visible = german.text.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        let iso = visible.range(of: "[0-9]{4}-[0-9]{2}-[0-9]{2}", options: .regularExpression)
        #expect(iso == nil, "an ISO date on a German page: \(iso.map { String(visible[$0.lowerBound...].prefix(60)) } ?? "")")
        let ymd = Study.date(-12).split(separator: "-").map { Int($0)! }
        #expect(visible.contains("\(ymd[2]).\(ymd[1]).\(ymd[0])"), "the surgery date as 6.12.2026")
        let english = try c.get("/console/patients/DAT-1", headers: [("Accept-Language", "en")])
        #expect(english.text.contains(Study.date(-12)), "English pages keep the ISO date")
    }
}
