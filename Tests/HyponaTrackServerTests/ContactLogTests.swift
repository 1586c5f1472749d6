import Foundation
import HTJSON
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The contact log in-process (docs/product.md, third round, C, "Contact log"): the API's
/// answers and refusals, the acknowledgement a contact about an open alert makes (its audit row
/// and hook event), and the console's form with its refusals at the field in both languages.
@Suite struct ContactLogTests {
    /// A patient operated on 2026-03-04 with a red day on 2026-03-09 (drowsiness), the clock at
    /// 09:00 that day in Berlin, and the hook `ward` on the red ladder's tier 0.
    struct Scene {
        let h: InProcessApplication
        let alertId: Int

        init(studyId: String = "CT-1") throws {
            let ward = HookConfiguration(name: "ward", kind: .command(path: "/bin/true", args: [], timeoutSeconds: 5),
                                         events: HookEventType.allCases)
            h = try InProcessApplication(clock: SimulationClock(Berlin.at("2026-03-09", "09:00"))) {
                $0.hooks = [ward]
                $0.escalation.red = [EscalationLadder.Tier(afterMinutes: 0, hooks: ["ward"])]
            }
            let token = try h.enrollAndActivate(studyId, surgeryDate: "2026-03-04")
            let red = h.send(.put, "/v1/me/days/2026-03-09", body: ["emergencySymptoms": ["drowsiness"]], token: token)
            guard red.status == 200 else { throw TestError("red day: \(red.json)") }
            guard case .array(let alerts) = h.send(.get, "/v1/alerts?open=true").json, case .object(let a)? = alerts.first,
                  case .number(let id)? = a["id"] else { throw TestError("no open alert") }
            alertId = Int(id)
        }

        func staff(_ name: String, _ role: String) throws -> String {
            let r = h.send(.post, "/v1/staff", body: ["name": .string(name), "role": .string(role)])
            guard case .object(let o) = r.json, case .string(let token)? = o["token"] else { throw TestError("staff: \(r.json)") }
            return token
        }

        func auditActions() throws -> [String] {
            try h.app.database.read { db in try db.query("SELECT action FROM audit_log ORDER BY seq").map { try $0.string(0) } }
        }

        func hookEvents() throws -> [String] {
            try h.app.database.read { db in try db.query("SELECT type FROM hook_outbox ORDER BY id").map { try $0.string(0) } }
        }

        func alert() -> JSONObject {
            guard case .array(let all) = h.send(.get, "/v1/alerts").json else { return JSONObject() }
            for case .object(let a) in all where a["id"] == .int(alertId) { return a }
            return JSONObject()
        }
    }

    static func field(_ json: JSONValue) -> JSONValue? { InProcessAPITests.errorField(json) }

    // MARK: API

    @Test func aContactAboutAnOpenAlertAcknowledgesItWithTheAcknowledgementsAuditRowAndHookEvent() throws {
        let s = try Scene()
        let nurse = try s.staff("nina", "nurse")
        #expect(try s.hookEvents() == ["alert.opened"])
        let r = s.h.send(.post, "/v1/patients/CT-1/contacts", body: ["outcome": "no_answer", "note": "rang twice",
                                                                     "alertId": .int(s.alertId)], token: nurse)
        #expect(r.status == 201, "\(r.json)")
        guard case .object(let c) = r.json else { return }
        #expect(c["outcome"] == "no_answer" && c["alertId"] == .int(s.alertId) && c["acknowledgedAlert"] == true)
        #expect(c["by"] == "staff:nina" && c["note"] == "rang twice" && c["studyId"] == "CT-1")
        let alert = s.alert()
        #expect(alert["state"] == "acknowledged" && alert["acknowledgedBy"] == "staff:nina" && alert["acknowledgeNote"] == "rang twice")
        #expect(Array(try s.auditActions().suffix(2)) == ["contact.add", "alert.acknowledge"])
        #expect(try s.hookEvents() == ["alert.opened", "alert.acknowledged"], "the hooks told of the alert hear of it")

        // A second contact about the now acknowledged alert is logged and acknowledges nothing.
        let again = s.h.send(.post, "/v1/patients/ct-1/contacts", body: ["outcome": "reached", "alertId": .int(s.alertId)], token: nurse)
        #expect(again.status == 201)
        if case .object(let o) = again.json { #expect(o["acknowledgedAlert"] == false && o["note"] == .null) }
        #expect(try s.auditActions().last == "contact.add")
        #expect(try s.hookEvents().count == 2)
        let listed = s.h.send(.get, "/v1/patients/CT-1/contacts")
        guard case .array(let contacts) = listed.json else { Issue.record("\(listed.json)"); return }
        let outcomes: [JSONValue?] = contacts.map { item -> JSONValue? in
            guard case .object(let o) = item else { return nil }
            return o["outcome"]
        }
        #expect(outcomes == ["reached", "no_answer"], "newest first")
    }

    @Test func aContactWithoutAnAlertOrAboutAResolvedOneChangesNoAlert() throws {
        let s = try Scene()
        #expect(s.h.send(.post, "/v1/patients/CT-1/contacts", body: ["outcome": "patient_called"]).status == 201)
        #expect(s.alert()["state"] == "open")
        #expect(s.h.send(.post, "/v1/alerts/\(s.alertId)/resolution", body: ["note": "seen in clinic"]).status == 200)
        let after = s.h.send(.post, "/v1/patients/CT-1/contacts", body: ["outcome": "other", "alertId": .int(s.alertId)])
        #expect(after.status == 201)
        #expect(s.alert()["state"] == "resolved" && s.alert()["acknowledgedAt"] == .null)
        #expect(try s.auditActions().filter { $0 == "alert.acknowledge" }.isEmpty)
    }

    @Test func aContactNamingAnotherPatientsAlertIsNotFoundNamingAlertId() throws {
        let s = try Scene()
        _ = try s.h.enrollAndActivate("CT-2", surgeryDate: "2026-03-04")
        let before = try s.auditActions()
        for id in [s.alertId, 999] {
            let r = s.h.send(.post, "/v1/patients/CT-2/contacts", body: ["outcome": "reached", "alertId": .int(id)])
            #expect(r.status == 404 && InProcessAPITests.errorCode(r.json) == "not_found" && Self.field(r.json) == "alertId", "\(r.json)")
        }
        #expect(try s.auditActions() == before, "nothing stored")
        #expect(s.alert()["state"] == "open")
        #expect(s.h.send(.post, "/v1/patients/NOBODY/contacts", body: ["outcome": "reached"]).status == 404)
    }

    @Test func everyProblemWithAContactIsA400NamingItsFieldAndStoresNothing() throws {
        let s = try Scene()
        let before = try s.auditActions()
        let cases: [(JSONValue, String)] = [
            ([:], "outcome"), (["outcome": "busy"], "outcome"), (["outcome": 3], "outcome"),
            (["outcome": "reached", "note": .string(String(repeating: "x", count: 1001))], "note"),
            (["outcome": "reached", "note": "call \u{202E}back"], "note"), (["outcome": "reached", "note": "a\u{0}b"], "note"),
            (["outcome": "reached", "note": ""], "note"), (["outcome": "reached", "alertId": "7"], "alertId"),
            (["outcome": "reached", "alertId": 0], "alertId"), (["outcome": "reached", "alertId": 1.5], "alertId"),
            (["outcome": "reached", "when": "now"], "when"),
        ]
        for (body, field) in cases {
            let r = s.h.send(.post, "/v1/patients/CT-1/contacts", body: body)
            #expect(r.status == 400 && Self.field(r.json) == .string(field), "\(body): \(r.json)")
        }
        #expect(s.h.send(.post, "/v1/patients/CT-1/contacts",
                         body: ["outcome": "reached", "note": .string(String(repeating: "ü", count: 1000) + "\r\n\tok")]).status == 400,
                "1,004 characters")
        #expect(try s.auditActions() == before)
        let fits = s.h.send(.post, "/v1/patients/CT-1/contacts", body: ["outcome": "reached", "note": "line 1\r\nline 2\twith a tab"])
        #expect(fits.status == 201, "line breaks and tabs are text")
    }

    @Test func aViewerReadsTheContactsButCannotLogOne() throws {
        let s = try Scene()
        let viewer = try s.staff("vera", "viewer")
        let refused = s.h.send(.post, "/v1/patients/CT-1/contacts", body: ["outcome": "reached"], token: viewer)
        #expect(refused.status == 403)
        #expect(s.h.send(.get, "/v1/patients/CT-1/contacts", token: viewer).status == 200)
        #expect(s.h.send(.get, "/v1/patients/CT-1/contacts", token: "-").status == 401)
    }

    @Test func theOpenAPIDocumentDescribesTheContactRoutesAndTheirBody() throws {
        let s = try Scene()
        let spec = JSONSerializer.string(s.h.send(.get, "/openapi.json").json)
        for fragment in ["\"/v1/patients/{studyId}/contacts\"", "\"/v1/export/contacts.csv\"", "\"patient_called\"",
                         "\"acknowledgedAlert\""] {
            #expect(spec.contains(fragment), "\(fragment)")
        }
    }
}
