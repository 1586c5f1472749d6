import Foundation
import HTJSON
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Acknowledge, contact and resolve from the inbox return to the inbox with the filters and page
/// the form was sent from, re-encoded from the known filter parameters only (never an open
/// redirect). In-process.
@Suite struct InboxReturnTests {
    typealias Ward = InboxConsoleTests.Ward

    static func post(_ w: Ward, _ session: HTTPHeaders, from page: String, to path: String, _ fields: [String: String]) -> HTTPResponse {
        ContactConsoleTests.post(w.h, session, from: page, to: path, fields)
    }

    /// The `inbox` field a row's forms carry on `page`.
    static func carried(_ html: String) -> String? {
        guard let r = html.range(of: "<input type=\"hidden\" name=\"inbox\" value=\"") else { return nil }
        return String(html[r.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func everyInboxFormCarriesTheFiltersAndPageItWasShownWith() throws {
        let w = try Ward(red: 53, yellow: 1)
        let session = try w.h.consoleSession()
        let html = w.page("/console/alerts?level=red&page=2", session).text
        #expect(Self.carried(html) == "level=red&page=2")
        let fields = html.components(separatedBy: "name=\"inbox\" value=\"level=red&amp;page=2\"").count - 1
        let forms = html.components(separatedBy: "<input type=\"hidden\" name=\"back\" value=\"inbox\">").count - 1
        #expect(forms == 3 * 4 && fields == forms, "acknowledge twice (quick and with a note), contact, resolve per row: \(fields) of \(forms)")
        #expect(Self.carried(w.page("/console/alerts", session).text) == "", "the default inbox carries nothing to restore")
    }

    @Test func acknowledgeContactAndResolveReturnToTheSameFilteredPage() throws {
        let w = try Ward(red: 53, yellow: 1)
        let session = try w.h.consoleSession()
        let page = "/console/alerts?level=red&page=2"
        let ids = ["IB-51", "IB-52", "IB-53"].map { w.ids[$0]! }
        let ack = Self.post(w, session, from: page, to: "/console/alerts/\(ids[0])/acknowledge",
                            ["back": "inbox", "inbox": "level=red&page=2"])
        #expect(ack.status == .seeOther && ack.headers["location"] == "/console/alerts?level=red&page=2#alert-\(ids[0])",
                "\(ack.status) \(ack.headers["location"] ?? "")")
        let contact = Self.post(w, session, from: page, to: "/console/patients/IB-52/contacts",
                                ["back": "inbox", "inbox": "level=red&page=2", "row": "1", "alertId": String(ids[1]), "outcome": "no_answer"])
        #expect(contact.headers["location"] == "/console/alerts?level=red&page=2#alert-\(ids[1])", "\(contact.headers["location"] ?? "")")
        let resolve = Self.post(w, session, from: "/console/alerts?state=all&page=1&level=red", to: "/console/alerts/\(ids[2])/resolve",
                                ["back": "inbox", "inbox": "state=all&level=red", "note": "Na 139"])
        #expect(resolve.headers["location"] == "/console/alerts?level=red&state=all#alert-\(ids[2])", "re-encoded in our order")
        guard case .array(let all) = w.h.send(.get, "/v1/alerts").json else { Issue.record("no alerts"); return }
        let states = all.compactMap { a -> JSONValue? in
            guard case .object(let o) = a, o["id"] == .int(ids[2]) else { return nil }
            return o["state"]
        }
        #expect(states == ["resolved"])
    }

    @Test func aRefusedFormShowsTheSameFilteredPageAgain() throws {
        let w = try Ward(red: 1, yellow: 1)
        let session = try w.h.consoleSession()
        let yellow = w.ids["IB-02"]!
        let r = Self.post(w, session, from: "/console/alerts?level=yellow", to: "/console/alerts/\(yellow)/resolve",
                          ["back": "inbox", "inbox": "level=yellow", "note": ""])
        let html = String(decoding: r.body, as: UTF8.self)
        #expect(r.status == .badRequest && Ward.rows(html) == 1 && html.contains("alert-\(yellow)\""), "only the yellow one, as shown")
        #expect(html.contains("aria-current=\"true\" class=\"current\">Yellow<") && Self.carried(html) == "level=yellow")
    }

    @Test func anythingButTheKnownFiltersIsDroppedAndTheAnswerStaysOnTheInbox() throws {
        let w = try Ward(red: 3)
        let session = try w.h.consoleSession()
        let forged: [(String, String)] = [
            ("https://evil.example/", "/console/alerts#"), ("//evil.example/x", "/console/alerts#"),
            ("level=red&next=https://evil.example", "/console/alerts?level=red#"),
            ("level=red%0d%0aLocation:%20https://evil.example", "/console/alerts#"), ("page=-1", "/console/alerts#"),
            ("level=green", "/console/alerts#"), ("state=resolved&before=7&redirect=/x", "/console/alerts?state=resolved&before=7#"),
        ]
        for (n, (value, expected)) in forged.enumerated() {
            let id = w.ids["IB-0\(n % 3 + 1)"]!
            let r = Self.post(w, session, from: "/console/alerts", to: "/console/patients/IB-0\(n % 3 + 1)/contacts",
                              ["back": "inbox", "inbox": value, "row": "1", "alertId": String(id), "outcome": "other"])
            #expect(r.status == .seeOther && r.headers["location"] == expected + "alert-\(id)", "\(value) → \(r.headers["location"] ?? "")")
        }
    }
}
