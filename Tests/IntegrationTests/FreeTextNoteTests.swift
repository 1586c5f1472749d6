import Foundation
import HTJSON
import Testing

/// Every free text staff type (alert notes, proposal decision notes, the reasons for deleting a
/// lab value or an item and for a withdrawal) refuses NUL, a lone CR and the bidi override and
/// isolate characters with 400 `invalid_value` naming the field, changing nothing, and keeps
/// line breaks (LF, CR LF) and tabs; a console form says so at its field in the page's language.
@Suite struct FreeTextNoteTests {
    /// NUL, CR alone, RIGHT-TO-LEFT OVERRIDE, LEFT-TO-RIGHT ISOLATE, RIGHT-TO-LEFT MARK, LINE
    /// SEPARATOR, ZERO WIDTH SPACE.
    static let refused = ["called\u{0}back", "called\rback", "called \u{202E}kcab", "called \u{2066}back",
                          "Na \u{200F}-131", "called\u{2028}back", "HT\u{200B}-7"]
    /// Line breaks, tabs, and the joiners that scripts and emoji need (ZWNJ in Persian, ZWJ).
    static let accepted = "Called the patient.\nNa 131 on the ward\r\nrecheck\ttomorrow می\u{200C}خواهم 👩\u{200D}⚕️"

    /// One free-text field of one route: the body it is sent in.
    struct Field: CustomStringConvertible {
        let route: String
        let path: String
        let field: String
        var extra: JSONObject = JSONObject()
        var description: String { "\(route) \(field)" }

        func body(_ text: String) -> JSONValue {
            var o = extra
            o[field] = .string(text)
            return .object(o)
        }
    }

    static func number(_ v: JSONValue?, _ what: String) throws -> Int {
        guard case .number(let n)? = v else { throw TestFailure("no \(what)") }
        return Int(n)
    }

    /// What a refused request must leave as it was: the alerts, the proposals, the patient and
    /// their audit trail (every change is audited).
    static func state(_ d: TestDaemon, _ id: String) throws -> [String] {
        try ["/v1/alerts", "/v1/proposals?studyId=\(id)", "/v1/patients/\(id)", "/v1/audit?subject=\(id)&limit=1000"].map {
            try d.request(.get, $0, token: d.adminToken).text
        }
    }

    @Test func everyFreeTextRefusesControlAndBidiCharactersNamingTheFieldAndKeepsLineBreaksAndTabs() throws {
        let d = try TestDaemon()
        defer { d.stop() }
        let id = "FT-1"
        let patient = try Study.enrollAndActivate(d, id)
        let nurse = try Study.staff(d, "nurse.ft", role: "nurse")
        let red = Study.date(-1), other = Study.date(-2)
        #expect(try d.request(.put, "/v1/me/days/\(red)", token: patient, body: ["emergencySymptoms": ["drowsiness"]]).status == 200)
        #expect(try d.request(.put, "/v1/me/days/\(other)", token: patient, body: ["symptoms": [Study.symptom("s1", other)]]).status == 200)
        let alert = try Self.number(try d.request(.get, "/v1/alerts?open=true", token: nurse).json.firstElement?["id"], "alert")
        let lab = try Self.number(try d.request(.post, "/v1/patients/\(id)/labs", token: nurse, body: ["sodium": 140])["labId"], "lab")
        let imported = try ImportFlowTests.fhir(d, nurse, ImportFlowTests.bundle([ImportFlowTests.sodium("f1", id, date: red),
                                                                                  ImportFlowTests.sodium("f2", id, date: red, value: 133)]))
        let proposals = ImportFlowTests.ids(imported["proposed"]).map { Int($0) }
        #expect(proposals.count == 2, "\(imported.text)")

        // In the order they can all succeed: the withdrawal last.
        let fields = [
            Field(route: "acknowledge", path: "/v1/alerts/\(alert)/acknowledgement", field: "note"),
            Field(route: "resolve", path: "/v1/alerts/\(alert)/resolution", field: "note", extra: JSONObject([("sodium", 131)])),
            Field(route: "confirm", path: "/v1/proposals/\(proposals[0])/confirm", field: "note"),
            Field(route: "reject", path: "/v1/proposals/\(proposals[1])/reject", field: "note"),
            Field(route: "delete lab", path: "/v1/patients/\(id)/labs/\(lab)/deletion", field: "reason"),
            Field(route: "delete item", path: "/v1/patients/\(id)/days/\(other)/symptoms/s1/deletion", field: "reason"),
            Field(route: "withdraw", path: "/v1/patients/\(id)/withdrawal", field: "reason"),
        ]
        let before = try Self.state(d, id)
        for f in fields {
            for text in Self.refused {
                let r = try d.request(.post, f.path, token: nurse, body: f.body(text))
                #expect(r.status == 400 && r.errorCode == "invalid_value" && r.errorField == f.field,
                        "\(f) \(text.unicodeScalars.map { String($0.value, radix: 16) }): \(r.status) \(r.text)")
            }
        }
        #expect(try Self.state(d, id) == before, "nothing changed")

        for f in fields {
            let r = try d.request(.post, f.path, token: nurse, body: f.body(Self.accepted))
            #expect(r.status == 200, "\(f): \(r.status) \(r.text)")
        }
        let trail = try d.request(.get, "/v1/audit?subject=\(id)&limit=1000", token: d.adminToken)
        let stored = JSONSerializer.string(.string(Self.accepted))
        for action in ["\"alert.acknowledge", "\"alert.resolve", "\"proposal.confirm", "\"proposal.reject", "\"lab.delete"] {
            #expect(trail.text.contains(action), "\(action) audited")
        }
        #expect(trail.text.components(separatedBy: stored).count - 1 >= fields.count,
                "each text kept as typed, line breaks and tab included: \(trail.text.suffix(1500))")
        let resolved = try d.request(.get, "/v1/alerts", token: nurse).json.element(id: alert)
        #expect(resolved?["acknowledgeNote"] == .string(Self.accepted) && resolved?["resolveNote"] == .string(Self.accepted))
    }

    @Test func aConsoleResolveNoteWithABidiOverrideIsRefusedAtItsFieldInGermanAndEnglish() throws {
        let d = try TestDaemon()
        defer { d.stop() }
        let patient = try Study.enrollAndActivate(d, "FT-CON")
        #expect(try d.request(.put, "/v1/me/days/\(Study.date(-1))", token: patient, body: ["emergencySymptoms": ["drowsiness"]]).status == 200)
        let alert = try Self.number(try d.request(.get, "/v1/alerts?open=true", token: d.adminToken).json.firstElement?["id"], "alert")
        _ = try Study.staff(d, "console.ft", role: "nurse")
        try ConsoleClient.setPassword(d, "console.ft", ConsoleTests.password)
        let c = ConsoleClient(d)
        try c.signIn("console.ft", ConsoleTests.password)
        _ = try c.get("/console/alerts")
        let before = try d.request(.get, "/v1/alerts", token: d.adminToken).text
        let note = "called, see \u{202E}txt.exe"
        let field = "id=\"resolve-\(alert)-note-error\">"
        let de = try c.post("/console/alerts/\(alert)/resolve", ["note": note, "back": "inbox"], headers: ConsoleFieldMessagesTests.german)
        #expect(de.status == 400 && de.text.contains(field + "Dieser Text enthält ein unsichtbares Steuer- oder Textrichtungszeichen (U+202E)"),
                "\(de.status) \(de.text.suffix(3000))")
        #expect(!de.text.contains("a control or text-direction character"), "not the API's English")
        let en = try c.post("/console/alerts/\(alert)/resolve", ["note": note, "back": "inbox"])
        #expect(en.status == 400 && en.text.contains(field + "This text contains an invisible control or text-direction character (U+202E)"),
                "\(en.status) \(en.text.suffix(3000))")
        #expect(try d.request(.get, "/v1/alerts", token: d.adminToken).text == before, "the alert is unchanged")
    }
}

private extension JSONValue {
    var firstElement: JSONObject? {
        if case .array(let items) = self, case .object(let o)? = items.first { return o }
        return nil
    }

    func element(id: Int) -> JSONObject? {
        guard case .array(let items) = self else { return nil }
        return items.lazy.compactMap { if case .object(let o) = $0, o["id"] == .number(Double(id)) { o } else { nil } }.first
    }
}
