import Foundation
import HTJSON
import Testing

/// Who did what with imports, as the audit trail and the proposal list show it, over real HTTP:
/// a FHIR import is in each named patient's trail (`GET /v1/audit?subject=ID`) with what it did
/// for that patient, an import that named nobody is still audited, and a proposal a later import
/// superseded names the staff member who sent that import.
@Suite struct ImportAuditTests {
    /// The audit rows of `action` in `r` (a `GET /v1/audit` answer).
    static func rows(_ r: TestDaemon.Response, _ action: String) -> [JSONObject] {
        guard case .array(let items) = r.json else { return [] }
        return items.compactMap { if case .object(let o) = $0, o["action"] == .string(action) { o } else { nil } }
    }

    static func details(_ row: JSONObject?) -> JSONObject {
        if case .object(let o)? = row?["details"] { o } else { JSONObject() }
    }

    @Test func aFHIRImportIsAuditedUnderEachPatientItNamedWithThatPatientsProposals() throws {
        let d = try TestDaemon()
        defer { d.stop() }
        _ = try Study.enrollAndActivate(d, "IA-1")
        _ = try Study.enrollAndActivate(d, "IA-2")
        let nurse = try Study.staff(d, "nurse.ia", role: "nurse")
        let day = Study.date(-1)
        let doc = ImportFlowTests.bundle([ImportFlowTests.sodium("x1", "IA-1", date: day), ImportFlowTests.sodium("x2", "IA-1", date: day, value: 133),
                                          ImportFlowTests.sodium("y1", "IA-2", date: day), ImportFlowTests.sodium("z1", "NOBODY-IA", date: day)])
        let report = try ImportFlowTests.fhir(d, nurse, doc)
        #expect(report.status == 200, "\(report.text)")
        let proposed = ImportFlowTests.ids(report["proposed"])
        #expect(proposed.count == 3)

        let first = Self.rows(try d.request(.get, "/v1/audit?subject=IA-1", token: d.adminToken), "import.fhir")
        #expect(first.count == 1, "the import is in IA-1's trail")
        #expect(first.first?["actor"] == "staff:nurse.ia" && first.first?["subject"] == "IA-1")
        let one = Self.details(first.first)
        #expect(one["proposed"] == .array(proposed.prefix(2).map { .number($0) }) && one["proposedCount"] == 2, "\(one)")
        #expect(one["withdrawn"] == .array([]) && one["withdrawnCount"] == 0 && one["refusedTotal"] == 1 && one["patients"] == 2)

        let second = Self.rows(try d.request(.get, "/v1/audit?subject=IA-2", token: d.adminToken), "import.fhir")
        #expect(second.count == 1 && Self.details(second.first)["proposed"] == .array([.number(proposed[2])]), "\(second)")
        #expect(Self.details(second.first)["proposedCount"] == 1)

        // entered-in-error withdraws IA-1's pending x1: that row lists it as withdrawn.
        let eie = try ImportFlowTests.fhir(d, nurse, ImportFlowTests.bundle([ImportFlowTests.sodium("x1", "IA-1", date: day,
                                                                                                  status: "entered-in-error")]))
        #expect(ImportFlowTests.ids(eie["withdrawn"]) == [proposed[0]], "\(eie.text)")
        let later = Self.rows(try d.request(.get, "/v1/audit?subject=IA-1", token: d.adminToken), "import.fhir")
        #expect(later.count == 2 && Self.details(later.last)["withdrawn"] == .array([.number(proposed[0])])
                && Self.details(later.last)["withdrawnCount"] == 1, "\(later)")

        // A file that names no patient of the study is still audited, without a subject.
        let nobody = try ImportFlowTests.fhir(d, nurse, ImportFlowTests.bundle([ImportFlowTests.sodium("n1", "NOBODY-IA", date: day)]))
        #expect(nobody.status == 200)
        let all = Self.rows(try d.request(.get, "/v1/audit?limit=1000", token: d.adminToken), "import.fhir")
        #expect(all.count == 4, "one row per named patient, and one for the file that named none: \(all.count)")
        #expect(all.last?["subject"] == .null && Self.details(all.last)["refused"] == 1, "\(String(describing: all.last))")
    }

    @Test func aProposalSupersededByALaterImportNamesTheStaffMemberWhoSentIt() throws {
        let d = try TestDaemon()
        defer { d.stop() }
        let id = "IA-SUP"
        _ = try Study.enrollAndActivate(d, id)
        let first = try Study.staff(d, "nurse.first", role: "nurse")
        let second = try Study.staff(d, "nurse.second", role: "nurse")
        let day = Study.date(-1)

        // A lab value: the same Observation again, corrected.
        let lab = try ImportFlowTests.fhir(d, first, ImportFlowTests.bundle([ImportFlowTests.sodium("s1", id, date: day, value: 131)]))
        let labId = try #require(ImportFlowTests.ids(lab["proposed"]).first)
        let corrected = try ImportFlowTests.fhir(d, second, ImportFlowTests.bundle([ImportFlowTests.sodium("s1", id, date: day, value: 128,
                                                                                                          status: "corrected")]))
        #expect(ImportFlowTests.ids(corrected["proposed"]).count == 1, "\(corrected.text)")

        // A day value: a second Apple Health export with another morning weight.
        let path = "/v1/patients/\(id)/imports/apple-health"
        let export = ImportFlowTests.export(Study.date(-2))
        #expect(try d.request(.post, path, token: first, raw: Array(export.utf8), contentType: "application/xml").status == 200)
        let heavier = export.replacingOccurrences(of: "value=\"150\"", with: "value=\"152\"")
        #expect(try d.request(.post, path, token: second, raw: Array(heavier.utf8), contentType: "application/xml").status == 200)

        let superseded = try d.request(.get, "/v1/proposals?status=superseded&studyId=\(id)", token: first)
        guard case .array(let items)? = superseded["proposals"] else { Issue.record("\(superseded.text)"); return }
        let byField = Dictionary(uniqueKeysWithValues: items.compactMap { v -> (String, JSONObject)? in
            if case .object(let o) = v, case .string(let f)? = o["field"] { (f, o) } else { nil }
        })
        #expect(Set(byField.keys) == ["labSodium", "weightMorningKg"], "\(superseded.text)")
        #expect(byField["labSodium"]?["id"] == .number(labId))
        for (field, p) in byField {
            #expect(p["decidedBy"] == "staff:nurse.second" && p["createdBy"] == "staff:nurse.first", "\(field): \(p)")
            #expect(p["decidedAt"] != nil && p["decidedAt"] != .null)
        }
    }
}
