import Foundation
import HTJSON
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The ward board's rows (docs/product.md, third round, "Ward board"): why, since, the handling
/// state, the day after surgery in words, the order by level and handling, and the filters kept
/// by the refresh; in English and German. In-process, on a settable clock.
@Suite struct BoardHandlingPageTests {
    static func body(_ r: HTTPResponse) -> String { String(decoding: r.body, as: UTF8.self) }

    static func order(_ page: String) -> [String] {
        page.components(separatedBy: "data-study-id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    /// BD-ACK red today, acknowledged; BD-NEW red yesterday, acknowledged, red again today (new
    /// data since acknowledged); BD-RED red yesterday, not acknowledged; BD-YEL yellow today.
    static func ward() throws -> (InProcessApplication, HTTPHeaders) {
        let clock = SimulationClock(Berlin.at("2026-03-09", "09:00"))
        let h = try InProcessApplication(clock: clock)
        var tokens: [String: String] = [:]
        for id in ["BD-ACK", "BD-NEW", "BD-RED", "BD-YEL"] { tokens[id] = try h.enrollAndActivate(id, surgeryDate: "2026-03-04") }
        func put(_ id: String, _ date: String, _ body: JSONValue) {
            let r = h.send(.put, "/v1/me/days/\(date)", body: body, token: tokens[id])
            #expect(r.status == 200, "\(id) \(date): \(r.json)")
        }
        put("BD-ACK", "2026-03-09", ["emergencySymptoms": ["drowsiness"]])
        put("BD-NEW", "2026-03-08", ["emergencySymptoms": ["drowsiness"]])
        for alert in 1...2 { #expect(h.send(.post, "/v1/alerts/\(alert)/acknowledgement", body: ["note": "called"]).status == 200) }
        put("BD-NEW", "2026-03-09", ["emergencySymptoms": ["drowsiness"]])
        put("BD-RED", "2026-03-08", ["emergencySymptoms": ["drowsiness"]])
        put("BD-YEL", "2026-03-09", ["weightMorningKg": 82.0, "fluidIntakeMl": 2000])
        return (h, try h.consoleSession())
    }

    @Test func unhandledRedAndYellowComeBeforeHandledRedAndEachRowSaysWhySinceAndWhoHandledIt() throws {
        let (h, session) = try Self.ward()
        let page = Self.body(h.console.send(.get, "/console/", headers: session))
        #expect(Self.order(page) == ["BD-NEW", "BD-RED", "BD-YEL", "BD-ACK"], "\(Self.order(page))")
        #expect(page.contains("data-study-id=\"BD-NEW\" data-level=\"red\" data-handling=\"new-data\""))
        #expect(page.contains(">new data since acknowledged</strong>"))
        #expect(page.contains("data-handling=\"new\"") && page.contains(">new</strong>"))
        #expect(page.contains(">acknowledged</strong> by "), "who acknowledged BD-ACK")
        #expect(page.contains("since 8 Mar</span> <span class=\"nowrap\">(2 days)") && page.contains("since 9 Mar</span> <span class=\"nowrap\">(1 day)"))
        #expect(page.contains("<abbr title=\"postoperative day\">POD</abbr>") && page.contains("<td class=\"nowrap\">day 5</td>"))
        #expect(page.contains("<ul class=\"reasons\"><li title=\"weight_gain_pct\" data-code=\"weight_gain_pct\">Weight +2.5 % above baseline"))
        #expect(page.contains("<th scope=\"row\">"), "each row is headed by its study ID")
    }

    @Test func theGermanBoardIsGermanThroughout() throws {
        let (h, session) = try Self.ward()
        var german = session
        german.add(name: "Accept-Language", value: "de")
        let page = Self.body(h.console.send(.get, "/console/", headers: german))
        #expect(page.contains("seit 8.3.2026</span> <span class=\"nowrap\">(2 Tage)") && page.contains("seit 9.3.2026</span> <span class=\"nowrap\">(1 Tag)"))
        #expect(page.contains(">neue Daten seit Bestätigung</strong>") && page.contains(">bestätigt</strong> von "))
        #expect(page.contains("<td class=\"nowrap\">Tag 5</td>") && page.contains("<abbr title=\"postoperativer Tag\">POD</abbr>"))
        #expect(page.contains(">Gewicht +2,5 % über dem Ausgangsgewicht"))
        for english in ["since ", ">new<", ">acknowledged", " by ", "day 5", "(yellow", "more<"] {
            #expect(!page.contains(english), "no English \(english) on a German board")
        }
    }

    @Test func theFiltersNarrowTheBoardAndTheRefreshAndTheStopSwitchKeepThem() throws {
        let (h, session) = try Self.ward()
        let red = Self.body(h.console.send(.get, "/console/?level=red&handling=new", headers: session))
        #expect(Self.order(red) == ["BD-RED"], "\(Self.order(red))")
        #expect(red.contains("url=/console/?level=red&amp;handling=new&amp;auto=1\">"), "the refresh keeps the filter")
        #expect(red.contains("href=\"/console/?level=red&amp;handling=new&amp;refresh=off\""), "the stop switch keeps it too")
        #expect(red.contains("<option value=\"red\" selected>") && red.contains("<option value=\"new\" selected>"))
        #expect(red.contains("<title>(3 red, 1 yellow) Ward board · "), "the title counts the whole ward")
        let text = Self.body(h.console.send(.get, "/console/?q=yel", headers: session))
        #expect(Self.order(text) == ["BD-YEL"], "study ID text, any case")
        let handled = Self.body(h.console.send(.get, "/console/?handling=acknowledged&refresh=off", headers: session))
        #expect(Self.order(handled) == ["BD-ACK"])
        #expect(handled.contains("<input type=\"hidden\" name=\"refresh\" value=\"off\">"), "the form keeps a paused board paused")
        #expect(!handled.contains("http-equiv=\"refresh\""))
    }
}
