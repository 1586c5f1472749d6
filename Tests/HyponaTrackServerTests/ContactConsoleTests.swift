import Foundation
import HTJSON
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The contact form on the console (docs/product.md, third round, C, "Contact log"): on the
/// patient's page and in each alert's row of the inbox, outcomes in words in both languages,
/// refusals at the field in the page's language with nothing stored, and no form for a viewer.
/// In-process, pages included.
@Suite struct ContactConsoleTests {
    static func body(_ r: HTTPResponse) -> String { String(decoding: r.body, as: UTF8.self) }

    /// Signs `name` (created with `role` unless it is the bootstrap admin) in to the console.
    static func session(_ h: InProcessApplication, _ name: String, role: String) throws -> HTTPHeaders {
        let password = "a long enough password"
        #expect(h.send(.post, "/v1/staff", body: ["name": .string(name), "role": .string(role)]).status == 201)
        #expect(h.send(.put, "/v1/staff/\(name)/password", body: ["password": .string(password)]).status == 204)
        let form = h.console.send(.get, "/console/login")
        guard let cookie = form.headers["set-cookie"]?.split(separator: ";").first, let token = csrf(body(form)) else {
            throw TestError("no sign-in form")
        }
        let signedIn = h.console.send(.post, "/console/login", headers: ["Content-Type": "application/x-www-form-urlencoded",
                                                                         "Cookie": String(cookie)],
                                      body: "name=\(name)&password=\(password.replacingOccurrences(of: " ", with: "+"))&csrf=\(token)")
        guard let session = signedIn.headers["set-cookie"]?.split(separator: ";").first else { throw TestError("sign-in of \(name)") }
        return ["Cookie": String(session)]
    }

    static func csrf(_ html: String) -> String? {
        guard let r = html.range(of: "name=\"csrf\" value=\"") else { return nil }
        return String(html[r.upperBound...].prefix { $0 != "\"" })
    }

    /// Posts `fields` from the page at `page` (its CSRF token), in `language`.
    static func post(_ h: InProcessApplication, _ session: HTTPHeaders, from page: String, to path: String,
                     _ fields: [String: String], language: String = "en") -> HTTPResponse {
        var headers = session
        headers.add(name: "Accept-Language", value: language)
        let token = csrf(body(h.console.send(.get, page, headers: headers))) ?? ""
        var all = fields
        all["csrf"] = token
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let form = all.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
        headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        return h.console.send(.post, path, headers: headers, body: form)
    }

    @Test func aNurseLogsAContactOnThePatientPageAndSeesItInWordsInEitherLanguage() throws {
        let s = try ContactLogTests.Scene()
        let nurse = try Self.session(s.h, "nina", role: "nurse")
        let r = Self.post(s.h, nurse, from: "/console/patients/CT-1", to: "/console/patients/CT-1/contacts",
                          ["outcome": "patient_called", "note": "asked about fluids", "alertId": String(s.alertId), "back": "patient"])
        #expect(r.status == .seeOther && r.headers["location"] == "/console/patients/CT-1#contacts", "\(r.status) \(Self.body(r).prefix(300))")
        #expect(s.alert()["state"] == "acknowledged", "the contact acknowledged the open alert it names")
        let english = Self.body(s.h.console.send(.get, "/console/patients/CT-1", headers: nurse))
        #expect(english.contains("<span title=\"patient_called\">patient called</span>") && english.contains("asked about fluids"))
        #expect(english.contains("1 contact attempt; last: <span title=\"patient_called\">patient called</span>"), "in the alert's row")
        var de = nurse
        de.add(name: "Accept-Language", value: "de")
        let german = Self.body(s.h.console.send(.get, "/console/patients/CT-1", headers: de))
        #expect(german.contains("<h2 id=\"contacts\">Kontakte</h2>") && german.contains(">Patient hat angerufen</span>"))
        #expect(german.contains("1 Kontaktversuch; zuletzt:") && german.contains("Kontakt erfassen"))
        for word in ["nicht erreicht", "Mailbox", "Sonstiges", "erreicht", "Ergebnis"] { #expect(german.contains(word), "\(word)") }
        #expect(!german.contains(">no answer<") && !german.contains(">Log contact<") && !german.contains(">patient called<"))
    }

    @Test func aContactFromAnInboxRowReturnsToTheInboxAndARefusalShowsAtTheRowsFieldInEitherLanguage() throws {
        let s = try ContactLogTests.Scene()
        let nurse = try Self.session(s.h, "nina", role: "nurse")
        let inbox = Self.body(s.h.console.send(.get, "/console/alerts", headers: nurse))
        #expect(inbox.contains("<details class=\"more\"><summary>Notes, contact, resolve") && inbox.contains("<h3>Log contact</h3>"),
                "folded in the row")
        let fields = ["alertId": String(s.alertId), "row": "1", "back": "inbox"]
        let missing = Self.post(s.h, nurse, from: "/console/alerts", to: "/console/patients/CT-1/contacts", fields)
        let page = Self.body(missing)
        let form = "contact-\(s.alertId)"
        #expect(missing.status == .badRequest)
        #expect(page.contains("<p class=\"error\" id=\"\(form)-outcome-error\">Please choose one.</p>"), "\(page.suffix(3000))")
        #expect(page.contains("<details class=\"more\" open>") && page.contains("aria-describedby=\"\(form)-outcome-error\""))
        let long = Self.post(s.h, nurse, from: "/console/alerts", to: "/console/patients/CT-1/contacts",
                             fields.merging(["outcome": "voicemail", "note": String(repeating: "x", count: 1001)]) { $1 }, language: "de")
        let german = Self.body(long)
        #expect(long.status == .badRequest)
        #expect(german.contains("id=\"\(form)-note-error\">Bitte schreiben Sie höchstens 1000 Zeichen.</p>"))
        #expect(german.contains("<option value=\"voicemail\" selected>Mailbox</option>"), "what was chosen stays chosen")
        let bidi = Self.post(s.h, nurse, from: "/console/alerts", to: "/console/patients/CT-1/contacts",
                             fields.merging(["outcome": "reached", "note": "ok \u{202E}"]) { $1 }, language: "de")
        #expect(bidi.status == .badRequest && Self.body(bidi).contains("Steuer- oder Textrichtungszeichen (U+202E)"))
        #expect(s.alert()["state"] == "open" && s.h.send(.get, "/v1/patients/CT-1/contacts").json == .array([]), "nothing stored")

        let logged = Self.post(s.h, nurse, from: "/console/alerts", to: "/console/patients/CT-1/contacts",
                               fields.merging(["outcome": "no_answer"]) { $1 })
        #expect(logged.status == .seeOther && logged.headers["location"] == "/console/alerts#alert-\(s.alertId)")
        #expect(s.alert()["state"] == "acknowledged")
    }

    @Test func aFormNamingAnotherPatientsAlertIsRefusedAtTheAlertField() throws {
        let s = try ContactLogTests.Scene()
        _ = try s.h.enrollAndActivate("CT-2", surgeryDate: "2026-03-04")
        let nurse = try Self.session(s.h, "nina", role: "nurse")
        let r = Self.post(s.h, nurse, from: "/console/patients/CT-2", to: "/console/patients/CT-2/contacts",
                          ["outcome": "reached", "alertId": String(s.alertId), "back": "patient"], language: "de")
        #expect(r.status == .notFound)
        #expect(Self.body(r).contains("Patient CT-2 hat keinen Alarm \(s.alertId); es wurde nichts gespeichert."))
        #expect(s.alert()["state"] == "open")
    }

    @Test func aViewerSeesTheContactsAndNoContactForm() throws {
        let s = try ContactLogTests.Scene()
        #expect(s.h.send(.post, "/v1/patients/CT-1/contacts", body: ["outcome": "voicemail", "note": "left a message"]).status == 201)
        let viewer = try Self.session(s.h, "vera", role: "viewer")
        let page = Self.body(s.h.console.send(.get, "/console/patients/CT-1", headers: viewer))
        #expect(page.contains("left a message") && page.contains(">voicemail</span>"))
        #expect(!page.contains("contact-form") && !page.contains("action=\"/console/patients/CT-1/contacts\"") && !page.contains("class=\"contact\""))
        #expect(!Self.body(s.h.console.send(.get, "/console/alerts", headers: viewer)).contains("Log contact"))
        let refused = Self.post(s.h, viewer, from: "/console/patients/CT-1", to: "/console/patients/CT-1/contacts",
                                ["outcome": "reached", "back": "patient"])
        #expect(refused.status == .forbidden)
        #expect(s.h.send(.get, "/v1/patients/CT-1/contacts").json.arrayCount == 1)
    }
}

extension JSONValue {
    /// The number of elements of an array (-1 for anything else).
    var arrayCount: Int { if case .array(let a) = self { a.count } else { -1 } }
}
