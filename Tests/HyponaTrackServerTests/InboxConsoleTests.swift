import Foundation
import HTJSON
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The compact inbox (docs/product.md, third round, C, "The inbox"): one row per alert with its
/// level, patient, since, why and handling state, the notes and forms folded per row; filters by
/// level and state and pages of 50 as query parameters, in both languages. In-process.
@Suite struct InboxConsoleTests {
    static let german: HTTPHeaders = ["Accept-Language": "de-DE,de;q=0.9"]

    /// Patients IB-01… operated on 2026-03-04, each with one alert of 2026-03-09: red (drowsiness)
    /// or yellow (+2.5 % weight).
    struct Ward {
        let h: InProcessApplication
        var ids: [String: Int] = [:]

        init(red: Int, yellow: Int = 0) throws {
            h = try InProcessApplication(clock: SimulationClock(Berlin.at("2026-03-09", "09:00")))
            for n in 1...(red + yellow) {
                let studyId = n < 10 ? "IB-0\(n)" : "IB-\(n)"
                let token = try h.enrollAndActivate(studyId, surgeryDate: "2026-03-04")
                let body: JSONValue = n <= red ? ["emergencySymptoms": ["drowsiness"]] : ["weightMorningKg": 82.0]
                let day = h.send(.put, "/v1/me/days/2026-03-09", body: body, token: token)
                guard day.status == 200, case .object(let o) = day.json,
                      o["level"] == (n <= red ? "red" : "yellow") else { throw TestError("\(studyId): \(day.json)") }
            }
            guard case .array(let alerts) = h.send(.get, "/v1/alerts?open=true").json else { throw TestError("no alerts") }
            for case .object(let a) in alerts {
                if case .string(let s)? = a["studyId"], case .number(let id)? = a["id"] { ids[s] = Int(id) }
            }
        }

        func page(_ target: String, _ session: HTTPHeaders) -> (status: Int, text: String) {
            let r = h.console.send(.get, target, headers: session)
            return (r.status.rawValue, String(decoding: r.body, as: UTF8.self))
        }

        static func rows(_ html: String) -> Int { html.components(separatedBy: "<tr id=\"alert-").count - 1 }
    }

    static func row(_ html: String, _ id: Int) -> String {
        guard let start = html.range(of: "<tr id=\"alert-\(id)\"") else { return "" }
        return String(html[start.lowerBound...]).components(separatedBy: "</tr>").first ?? ""
    }

    @Test func eachAlertIsOneCompactRowWithItsHandlingAndTheFormsFoldedInEitherLanguage() throws {
        let w = try Ward(red: 2, yellow: 1)
        let red = w.ids["IB-01"]!, contacted = w.ids["IB-02"]!, yellow = w.ids["IB-03"]!
        #expect(w.h.send(.post, "/v1/alerts/\(yellow)/acknowledgement", body: ["note": "called back"]).status == 200)
        #expect(w.h.send(.post, "/v1/patients/IB-02/contacts", body: ["outcome": "no_answer", "alertId": .int(contacted)]).status == 201)
        var session = try w.h.consoleSession()
        let english = w.page("/console/alerts", session).text
        #expect(Ward.rows(english) == 3)
        let r = Self.row(english, red)
        #expect(r.contains(">RED</span>") && r.contains("href=\"/console/patients/IB-01\"") && r.contains("2026-03-09<br>"), "\(r)")
        #expect(r.contains("POD 5 · 1 day") && r.contains("class=\"reason\"") && r.contains(">New</strong>"), "\(r)")
        #expect(r.contains("action=\"/console/alerts/\(red)/acknowledge\" class=\"quick\""), "the small acknowledge button")
        #expect(r.contains("<details class=\"more\"><summary>Notes, contact, resolve") && r.contains("/console/alerts/\(red)/resolve")
                && r.contains("/console/patients/IB-01/contacts"), "the forms, folded")
        let y = Self.row(english, yellow)
        #expect(y.contains(">YELLOW</span>") && y.contains(">Acknowledged</strong>") && y.contains("called back"), "\(y)")
        #expect(!y.contains("class=\"quick\""), "nothing to acknowledge")
        #expect(Self.row(english, contacted).contains("Contacted: <span title=\"no_answer\">"))
        #expect(english.range(of: "alert-\(red)\"")!.lowerBound < english.range(of: "alert-\(yellow)\"")!.lowerBound, "red first")
        for (name, value) in Self.german { session.add(name: name, value: value) }
        let german = w.page("/console/alerts", session).text
        let g = Self.row(german, red)
        #expect(g.contains(">ROT</span>") && g.contains("9.3.2026<br>") && g.contains("POD 5 · 1 Tag") && g.contains(">Neu</strong>"), "\(g)")
        #expect(g.contains("Notizen, Kontakt, Erledigen") && german.contains(">Warum</th>") && german.contains(">Seit</th>"))
        #expect(Self.row(german, yellow).contains(">Bestätigt</strong>") && !german.contains(">New<") && !german.contains("2026-03-09"))
    }

    @Test func levelAndStateFilterTheInboxAsQueryParameters() throws {
        let w = try Ward(red: 2, yellow: 1)
        let acked = w.ids["IB-02"]!, resolved = w.ids["IB-01"]!
        #expect(w.h.send(.post, "/v1/alerts/\(acked)/acknowledgement", body: [:]).status == 200)
        #expect(w.h.send(.post, "/v1/alerts/\(resolved)/resolution", body: ["note": "Na 138 in clinic"]).status == 200)
        let session = try w.h.consoleSession()
        #expect(Ward.rows(w.page("/console/alerts", session).text) == 2, "unresolved by default")
        let reds = w.page("/console/alerts?level=red", session).text
        #expect(Ward.rows(reds) == 1 && reds.contains("alert-\(acked)\"") && reds.contains("aria-current=\"true\" class=\"current\">Red<"))
        #expect(Ward.rows(w.page("/console/alerts?level=yellow", session).text) == 1)
        let new = w.page("/console/alerts?state=open", session).text
        #expect(Ward.rows(new) == 1 && new.contains("alert-\(w.ids["IB-03"]!)\""))
        let done = w.page("/console/alerts?state=resolved&level=red", session).text
        #expect(Ward.rows(done) == 1 && done.contains(">Resolved</strong>") && done.contains("Na 138 in clinic"))
        #expect(Ward.rows(w.page("/console/alerts?state=all", session).text) == 3)
        #expect(Ward.rows(w.page("/console/alerts?all=1", session).text) == 3, "the older all=1 still lists all")
        #expect(w.page("/console/alerts?level=green", session).status == 400)
        var de = session
        for (name, value) in Self.german { de.add(name: name, value: value) }
        let bad = w.page("/console/alerts?state=later", de)
        #expect(bad.status == 400 && bad.text.contains("ist kein Bearbeitungsstand"))
        let german = w.page("/console/alerts?state=acknowledged", de).text
        #expect(Ward.rows(german) == 1 && german.contains("class=\"current\">Bestätigt<") && german.contains(">Unerledigt<"))
    }

    @Test func theInboxPagesByFiftyWithPreviousAndNextLinksInEitherLanguage() throws {
        let w = try Ward(red: 53)
        var session = try w.h.consoleSession()
        let first = w.page("/console/alerts", session).text
        #expect(Ward.rows(first) == 50 && first.contains("Alerts 1–50 of 53") && first.contains("href=\"/console/alerts?page=2\" rel=\"next\""))
        let second = w.page("/console/alerts?page=2", session).text
        #expect(Ward.rows(second) == 3 && second.contains("Alerts 51–53 of 53") && second.contains("href=\"/console/alerts\" rel=\"prev\"")
                && !second.contains("rel=\"next\""))
        let newest = w.page("/console/alerts?state=all", session).text
        #expect(Ward.rows(newest) == 50 && newest.contains("Older alerts →") && newest.contains("newest first"))
        #expect(Ward.rows(w.page("/console/alerts?state=all&page=2", session).text) == 3)
        #expect(w.page("/console/alerts?page=0", session).status == 400)
        for (name, value) in Self.german { session.add(name: name, value: value) }
        let german = w.page("/console/alerts?page=2", session).text
        #expect(german.contains("Alarme 51–53 von 53") && german.contains("Vorherige Seite"))
        #expect(w.page("/console/alerts", session).text.contains("Nächste Seite →"))
    }

    @Test func aViewerSeesTheRowsAndNotesButNoForm() throws {
        let w = try Ward(red: 1)
        #expect(w.h.send(.post, "/v1/alerts/\(w.ids["IB-01"]!)/acknowledgement", body: ["note": "seen"]).status == 200)
        let viewer = try ContactConsoleTests.session(w.h, "vera", role: "viewer")
        let html = w.page("/console/alerts", viewer).text
        #expect(Ward.rows(html) == 1 && html.contains("<summary>Notes<") && html.contains("seen"))
        #expect(html.components(separatedBy: "<form").count - 1 == 1 && html.contains("action=\"/console/logout\""), "only sign-out")
    }
}
