import Foundation
import HTJSON
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Corrections from the console's management page (docs/product.md, third round, C): a day's
/// value through the staff correction's path (evaluated again, audited with the reason the
/// console requires) and deleting a wrong lab value (kept in the audit trail with its reason).
/// The API's day correction takes the same reason, optionally.
@Suite struct ManageCorrectionConsoleTests {
    typealias Scene = ManageConsoleTests.Scene

    /// A patient operated on 4 March with a morning weight of 80 kg on 8 March and a lab sodium.
    static func patient(_ s: Scene, _ studyId: String = "CO-1") throws -> (token: String, labId: Int) {
        let token = try s.h.enrollAndActivate(studyId, surgeryDate: "2026-03-04")
        #expect(s.h.send(.put, "/v1/me/days/2026-03-08", body: ["weightMorningKg": 80.0], token: token).status == 200)
        let lab = s.h.send(.post, "/v1/patients/\(studyId)/labs", body: ["sodium": 131, "time": "2026-03-08T10:00:00+01:00"])
        guard case .number(let id)? = JSONObject.of(lab.json)?["labId"] else { throw TestError("lab: \(lab.json)") }
        return (token, Int(id))
    }

    static func day(_ s: Scene, _ studyId: String, _ date: String) -> JSONObject? {
        guard case .array(let days)? = JSONObject.of(s.patient(studyId))?["timeline"] else { return nil }
        return days.compactMap(JSONObject.of).first { $0["date"] == .string(date) }.flatMap { $0["data"].flatMap(JSONObject.of) }
    }

    /// How many live lab values CO-1's 8 March holds.
    static func labs(_ s: Scene) -> Int {
        guard case .array(let labs)? = day(s, "CO-1", "2026-03-08")?["labSodium"] else { return 0 }
        return labs.count
    }

    @Test func aNurseCorrectsADaysValueWithAReasonAndTheDayIsEvaluatedAgain() throws {
        let s = try Scene()
        _ = try Self.patient(s)
        let evaluations = s.audit("CO-1").filter { $0["action"] == "day.correct" }.count
        let r = s.post(from: "/console/patients/CO-1/manage", to: "/console/patients/CO-1/days",
                       ["date": "2026-03-08", "field": "weightMorningKg", "value": "82,5", "reason": "scale read in lb"])
        #expect(r.status == .seeOther && r.headers["location"] == "/console/patients/CO-1?done=day#days", "\(ManageConsoleTests.body(r).suffix(3000))")
        #expect(Self.day(s, "CO-1", "2026-03-08")?["weightMorningKg"] == 82.5)
        let corrected = s.audit("CO-1").filter { $0["action"] == "day.correct" }
        #expect(corrected.count == evaluations + 1 && corrected.last?["actor"] == "staff:nina")
        guard case .object(let details)? = corrected.last?["details"] else { Issue.record("no details"); return }
        #expect(details["reason"] == "scale read in lb")
        guard case .array(let evaluated)? = details["evaluations"] else { Issue.record("not evaluated"); return }
        #expect(!evaluated.isEmpty, "the day was evaluated again, as a correction")
        #expect(ManageConsoleTests.body(s.get("/console/patients/CO-1?done=day")).contains("Correction saved"))
    }

    @Test func aRefusedCorrectionShowsEveryProblemAtItsFieldAndChangesNothing() throws {
        let s = try Scene()
        _ = try Self.patient(s)
        let before = s.patient("CO-1")
        let all = s.post(from: "/console/patients/CO-1/manage", to: "/console/patients/CO-1/days",
                         ["date": "", "field": "urineSG", "value": "1,2"], language: "de")
        let html = ManageConsoleTests.body(all)
        #expect(all.status == .badRequest)
        #expect(html.contains("id=\"correct-date-error\">Bitte füllen Sie dieses Feld aus."), "\(html.suffix(3000))")
        #expect(html.contains("id=\"correct-value-error\">Bitte geben Sie einen Wert von 1,000 bis 1,040 ein."), "the SG's precision")
        #expect(html.contains("id=\"correct-reason-error\">Bitte füllen Sie dieses Feld aus."))
        #expect(html.contains("<option value=\"urineSG\" selected>") && html.contains("value=\"1,2\""), "as typed")
        let outside = s.post(from: "/console/patients/CO-1/manage", to: "/console/patients/CO-1/days",
                             ["date": "2026-01-08", "field": "weightMorningKg", "value": "81", "reason": "typo"])
        #expect(outside.status == .badRequest)
        #expect(ManageConsoleTests.body(outside).contains("id=\"correct-date-error\">This day is outside the monitoring period"))
        #expect(s.patient("CO-1") == before, "nothing changed")
        #expect(!s.audit("CO-1").contains { $0["action"] == "day.correct" })
    }

    @Test func aNurseDeletesAWrongLabValueWithAReasonKeptInTheAuditTrail() throws {
        let s = try Scene()
        let (_, labId) = try Self.patient(s)
        let page = ManageConsoleTests.body(s.get("/console/patients/CO-1/manage", language: "de"))
        #expect(page.contains("<option value=\"\(labId)\">8.3.2026 10:00: 131 mmol/l</option>"), "\(page.suffix(3000))")
        let refused = s.post(from: "/console/patients/CO-1/manage", to: "/console/patients/CO-1/labs/deletion", ["labId": String(labId)])
        #expect(refused.status == .badRequest)
        #expect(ManageConsoleTests.body(refused).contains("id=\"delete-lab-reason-error\">Please fill in this field."))
        #expect(ManageConsoleTests.body(refused).contains("<option value=\"\(labId)\" selected>"))
        #expect(Self.labs(s) == 1, "still there")
        let r = s.post(from: "/console/patients/CO-1/manage", to: "/console/patients/CO-1/labs/deletion",
                       ["labId": String(labId), "reason": "sample of another patient"])
        #expect(r.status == .seeOther && r.headers["location"] == "/console/patients/CO-1?done=lab-deleted#labs")
        #expect(Self.labs(s) == 0)
        let deletion = s.audit("CO-1").first { $0["action"] == "lab.delete" }
        guard case .object(let details)? = deletion?["details"] else { Issue.record("no audit row"); return }
        #expect(details["reason"] == "sample of another patient" && deletion?["actor"] == "staff:nina")
        // Deleted already (a resent form): said at the lab field, nothing changed.
        let again = s.post(from: "/console/patients/CO-1/manage", to: "/console/patients/CO-1/labs/deletion",
                           ["labId": String(labId), "reason": "again"])
        #expect(again.status == .notFound && ManageConsoleTests.body(again).contains("id=\"delete-lab-labId-error\">This lab value no longer exists"))
    }

    @Test func theAPIsDayCorrectionTakesAnOptionalReasonForTheAuditTrail() throws {
        let s = try Scene()
        _ = try Self.patient(s)
        #expect(s.h.send(.patch, "/v1/patients/CO-1/days/2026-03-08", body: ["weightMorningKg": 81.0]).status == 200, "still optional")
        #expect(s.h.send(.patch, "/v1/patients/CO-1/days/2026-03-08", body: ["weightMorningKg": 81.5, "reason": "re-weighed"]).status == 200)
        let rows = s.audit("CO-1").filter { $0["action"] == "day.correct" }
        guard case .object(let first)? = rows.first?["details"], case .object(let second)? = rows.last?["details"] else {
            Issue.record("no rows"); return
        }
        #expect(first["reason"] == nil && second["reason"] == "re-weighed")
        let long = s.h.send(.patch, "/v1/patients/CO-1/days/2026-03-08", body: ["weightMorningKg": 82.0, "reason": .string(String(repeating: "x", count: 501))])
        #expect(long.status == 400 && JSONObject.of(JSONObject.of(long.json)?["error"] ?? .null)?["field"] == "reason")
        #expect(Self.day(s, "CO-1", "2026-03-08")?["weightMorningKg"] == 81.5, "nothing stored")
    }
}
