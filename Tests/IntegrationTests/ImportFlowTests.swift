import Foundation
import HTJSON
import Testing

/// Imports end to end with the real daemon: FHIR and Apple Health uploads propose, nothing
/// changes until a nurse confirms; confirming applies as a staff correction; a patient's later
/// entry is shown beside the proposal and not overwritten without an explicit override.
@Suite struct ImportFlowTests {
    static let system = "urn:hyponatrack:study-id"

    static func sodium(_ id: String, _ studyId: String, date: String, value: Double = 131, code: String = "2951-2",
                       status: String = "final") -> JSONValue {
        ["resourceType": "Observation", "id": .string(id), "status": .string(status),
         "code": ["coding": [["system": "http://loinc.org", "code": .string(code)]]],
         "subject": ["identifier": ["system": .string(system), "value": .string(studyId)]],
         "valueQuantity": ["value": .number(value), "unit": "mmol/L", "system": "http://unitsofmeasure.org", "code": "mmol/L"],
         "effectiveDateTime": .string(Study.time(date))]
    }

    static func bundle(_ resources: [JSONValue], type: String = "collection") -> JSONValue {
        ["resourceType": "Bundle", "type": .string(type), "entry": .array(resources.map { ["resource": $0] })]
    }

    static func fhir(_ d: TestDaemon, _ token: String, _ doc: JSONValue) throws -> TestDaemon.Response {
        try d.request(.post, "/v1/imports/fhir", token: token, raw: JSONSerializer.bytes(doc), contentType: "application/fhir+json")
    }

    static func reasons(_ r: TestDaemon.Response) -> [String] {
        guard case .array(let list)? = r["refused"] else { return [] }
        return list.compactMap { if case .object(let o) = $0, case .string(let s)? = o["reason"] { s } else { nil } }
    }

    static func ids(_ v: JSONValue?) -> [Double] {
        guard case .array(let a)? = v else { return [] }
        return a.compactMap { if case .number(let n) = $0 { n } else { nil } }
    }

    static func id(_ o: JSONObject) -> Double? { if case .number(let n)? = o["id"] { n } else { nil } }

    static func pending(_ d: TestDaemon, _ token: String, _ studyId: String) throws -> [JSONObject] {
        let r = try d.request(.get, "/v1/proposals?status=pending&studyId=\(studyId)", token: token)
        guard case .array(let list)? = r["proposals"] else { return [] }
        return list.compactMap { if case .object(let o) = $0 { o } else { nil } }
    }

    /// `2026-11-20 07:10:00 +0100` on a date of the test's Berlin calendar.
    static func healthTime(_ date: String, _ clock: String) -> String {
        "\(date) \(clock):00 \(Study.offset(date).replacingOccurrences(of: ":", with: ""))"
    }

    static func export(_ date: String) -> String {
        func record(_ type: String, _ clock: String, _ value: String, _ unit: String, _ source: String) -> String {
            let t = healthTime(date, clock)
            return " <Record type=\"\(type)\" sourceName=\"\(source)\" unit=\"\(unit)\" creationDate=\"\(t)\" startDate=\"\(t)\" endDate=\"\(t)\" value=\"\(value)\"/>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData ANY>\n]>\n<HealthData locale=\"en_US\">\n"
            + record("HKQuantityTypeIdentifierBodyMass", "07:00", "150", "lb", "Scale")
            + record("HKQuantityTypeIdentifierStepCount", "09:00", "3000", "count", "Phone")
            + record("HKQuantityTypeIdentifierStepCount", "09:00", "3300", "count", "Watch")
            + record("HKQuantityTypeIdentifierStepCount", "09:00", "777", "count", "Phone").replacingOccurrences(of: date, with: "2001-01-01")
            + "</HealthData>\n"
    }

    @Test func fhirSodiumIsProposedOnceConfirmedAsALabAndWithdrawnByEnteredInError() throws {
        let d = try TestDaemon()
        defer { d.stop() }
        let id = "IMP-FHIR-1"
        _ = try Study.enrollAndActivate(d, id)
        let nurse = try Study.staff(d, "nurse.imp", role: "nurse")
        let viewer = try Study.staff(d, "viewer.imp", role: "viewer")
        let day = Study.date(-1)
        let doc = Self.bundle([Self.sodium("o1", id, date: day), Self.sodium("o1", id, date: day),
                               Self.sodium("k1", id, date: day, value: 4.1, code: "2823-3"),
                               Self.sodium("p1", id, date: day, status: "preliminary"),
                               Self.sodium("u1", "NOBODY-1", date: day), Self.sodium("r1", id, date: day, value: 95)])
        #expect(try Self.fhir(d, viewer, doc).status == 403)
        let first = try Self.fhir(d, nurse, doc)
        #expect(first.status == 200, "\(first.text)")
        #expect(Self.ids(first["proposed"]).count == 1)
        #expect(Self.reasons(first) == ["duplicate", "other_code", "status", "unknown_patient", "out_of_range"])
        let again = try Self.fhir(d, nurse, doc)
        #expect(Self.ids(again["proposed"]).isEmpty && Self.reasons(again).first == "duplicate")

        let listed = try Self.pending(d, nurse, id)
        #expect(listed.count == 1)
        #expect(listed.first?["field"] == "labSodium" && listed.first?["value"] == 131 && listed.first?["replaces"] == .null)
        #expect(listed.first?["source"] == "fhir" && listed.first?["date"] == .string(day))
        // Nothing is applied before a nurse confirms.
        let before = try d.request(.get, "/v1/audit?subject=\(id)", token: d.adminToken)
        #expect(!before.text.contains("lab.add"))

        let pid = Int(Self.ids(first["proposed"])[0])
        let confirmed = try d.request(.post, "/v1/proposals/\(pid)/confirm", token: nurse, body: ["note": "checked with the lab"])
        #expect(confirmed.status == 200, "\(confirmed.text)")
        #expect(confirmed["status"] == "confirmed" && confirmed["decidedBy"] == "staff:nurse.imp" && confirmed["current"] == 131)
        #expect(try d.request(.post, "/v1/proposals/\(pid)/confirm", token: nurse, body: [:]).status == 409)
        let after = try d.request(.get, "/v1/audit?subject=\(id)", token: d.adminToken)
        #expect(after.text.contains("lab.add") && after.text.contains("proposal.confirm"))

        // entered-in-error after confirmation: a pending deletion proposal, rejected here.
        let eie = try Self.fhir(d, nurse, Self.bundle([Self.sodium("o1", id, date: day, status: "entered-in-error")]))
        #expect(Self.ids(eie["proposed"]).count == 1, "\(eie.text)")
        let deletion = try Self.pending(d, nurse, id)
        #expect(deletion.first?["value"] == .null && deletion.first?["replaces"] == 131)
        let rejected = try d.request(.post, "/v1/proposals/\(Int(Self.ids(eie["proposed"])[0]))/reject", token: nurse,
                                     body: ["note": "the lab confirmed the value"])
        #expect(rejected["status"] == "rejected" && rejected["note"] == "the lab confirmed the value")

        // Whole-file refusals change nothing.
        let wrongType = try Self.fhir(d, nurse, Self.bundle([Self.sodium("o9", id, date: day)], type: "document"))
        #expect(wrongType.status == 400 && wrongType.errorField == "type")
        let garbage = try d.request(.post, "/v1/imports/fhir", token: nurse, raw: Array("{\"resourceType\":".utf8),
                                    contentType: "application/fhir+json")
        #expect(garbage.status == 400)
        #expect(try Self.pending(d, nurse, id).isEmpty)
    }

    @Test func appleHealthExportProposesDayValuesAndALaterPatientEntryIsShownSideBySide() throws {
        let d = try TestDaemon()
        defer { d.stop() }
        let id = "IMP-AH-1"
        let patient = try Study.enrollAndActivate(d, id)
        let nurse = try Study.staff(d, "nurse.ah", role: "nurse")
        let day = Study.date(-2)
        let path = "/v1/patients/\(id)/imports/apple-health"
        let r = try d.request(.post, path, token: nurse, raw: Array(Self.export(day).utf8), contentType: "application/xml")
        #expect(r.status == 200, "\(r.text)")
        #expect(r["skippedOutsideWindow"] == 1)
        let listed = try Self.pending(d, nurse, id)
        let byField = Dictionary(uniqueKeysWithValues: listed.compactMap { o -> (String, JSONObject)? in
            if case .string(let f)? = o["field"] { (f, o) } else { nil }
        })
        #expect(Set(byField.keys) == ["weightMorningKg", "steps"])
        #expect(byField["weightMorningKg"]?["value"] == 68.04 && byField["steps"]?["value"] == 3300)
        // Re-importing the same export proposes nothing new.
        let again = try d.request(.post, path, token: nurse, raw: Array(Self.export(day).utf8), contentType: "application/xml")
        #expect(Self.ids(again["proposed"]).isEmpty)

        // The patient enters a weight afterwards: shown beside the proposal, not overwritten.
        let put = try d.request(.put, "/v1/me/days/\(day)", token: patient, body: ["weightMorningKg": 80.0])
        #expect(put.status == 200, "\(put.text)")
        let weight = try #require(try Self.pending(d, nurse, id).first { $0["field"] == "weightMorningKg" })
        #expect(weight["current"] == 80.0 && weight["replaces"] == .null && weight["conflict"] == true)
        let wid = try #require(Self.id(weight))
        let refused = try d.request(.post, "/v1/proposals/\(Int(wid))/confirm", token: nurse, body: [:])
        #expect(refused.status == 409 && refused.errorField == "override")
        let stepsId = try #require(byField["steps"].flatMap(Self.id))
        let steps = try d.request(.post, "/v1/proposals/\(Int(stepsId))/confirm", token: nurse, body: ["note": "watch data"])
        #expect(steps.status == 200, "\(steps.text)")
        let days = try d.request(.get, "/v1/me/days?from=\(day)&to=\(day)", token: patient)
        #expect(days.text.contains("\"steps\":3300") && days.text.contains("\"weightMorningKg\":80"), "\(days.text)")
        let audit = try d.request(.get, "/v1/audit?subject=\(id)", token: d.adminToken)
        #expect(audit.text.contains("day.correct"))

        // Damaged files: a clear 400, nothing proposed.
        let malformed = try d.request(.post, path, token: nurse, raw: Array("<HealthData><Record type=\"x\"></HealthData>".utf8),
                                      contentType: "application/xml")
        #expect(malformed.status == 400 && malformed.text.contains("malformed XML"), "\(malformed.text)")
        let truncated = try d.request(.post, path, token: nurse, raw: [0x50, 0x4B, 0x03, 0x04] + Array(repeating: 0, count: 100),
                                      contentType: "application/zip")
        #expect(truncated.status == 400 && truncated.text.contains("truncated"), "\(truncated.text)")
        #expect(try d.request(.post, path, token: nurse, raw: [1, 2, 3], contentType: "text/plain").status == 415)
        #expect(try Self.pending(d, nurse, id).count == 1)
    }

    @Test func staffCorrectionOfADayUsesThePatientsMergeRules() throws {
        let d = try TestDaemon()
        defer { d.stop() }
        let id = "IMP-PATCH-1"
        _ = try Study.enrollAndActivate(d, id)
        let nurse = try Study.staff(d, "nurse.patch", role: "nurse")
        let day = Study.date(-1)
        let ok = try d.request(.patch, "/v1/patients/\(id)/days/\(day)", token: nurse, body: ["fluidIntakeMl": 1200.0])
        #expect(ok.status == 200 && ok["date"] == .string(day), "\(ok.text)")
        let bad = try d.request(.patch, "/v1/patients/\(id)/days/\(day)", token: nurse, body: ["fluidIntakeMl": -5.0])
        #expect(bad.status == 400 && bad.errorField == "fluidIntakeMl", "\(bad.text)")
        let future = try d.request(.patch, "/v1/patients/\(id)/days/\(Study.date(3))", token: nurse, body: ["steps": 10])
        #expect(future.status == 400 && future.errorField == "date")
        #expect(try d.request(.patch, "/v1/patients/NOBODY-2/days/\(day)", token: nurse, body: ["steps": 10]).status == 404)
        let audit = try d.request(.get, "/v1/audit?subject=\(id)", token: d.adminToken)
        #expect(audit.text.contains("day.correct") && audit.text.contains("staff:nurse.patch"), "\(audit.text.prefix(400))")
    }

    @Test func theCLIImportsListsAndConfirms() throws {
        let d = try TestDaemon()
        defer { d.stop() }
        let id = "IMP-CLI-1"
        _ = try Study.enrollAndActivate(d, id)
        let nurse = try Study.staff(d, "nurse.cli", role: "nurse")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imp-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bundle = dir.appendingPathComponent("labs.json"), export = dir.appendingPathComponent("export.xml")
        try Data(JSONSerializer.bytes(Self.bundle([Self.sodium("c1", id, date: Study.date(-1)),
                                                   Self.sodium("c2", id, date: Study.date(-1), code: "2823-3")]))).write(to: bundle)
        try Data(Self.export(Study.date(-2)).utf8).write(to: export)
        let fhir = try CLIRunner.run(["import", "fhir", bundle.path], server: d.baseURL, token: nurse)
        #expect(fhir.status == 0 && fhir.stdout.contains("Proposed 1 value") && fhir.stdout.contains("other_code"), "\(fhir.stdout)\(fhir.stderr)")
        let health = try CLIRunner.run(["import", "apple-health", id, export.path], server: d.baseURL, token: nurse)
        #expect(health.status == 0 && health.stdout.contains("Proposed 2 values"), "\(health.stdout)\(health.stderr)")
        let listed = try CLIRunner.run(["proposals", id, "--json"], server: d.baseURL, token: nurse)
        guard case .array(let items) = try JSONParser.parse(listed.stdout) else { Issue.record("\(listed.stdout)"); return }
        #expect(items.count == 3)
        let ids = items.compactMap { if case .object(let o) = $0, case .number(let n)? = o["id"] { String(Int(n)) } else { nil } }
        let confirmed = try CLIRunner.run(["confirm"] + ids + ["--note", "checked"], server: d.baseURL, token: nurse)
        #expect(confirmed.status == 0 && confirmed.stdout.components(separatedBy: "confirmed.").count == 4, "\(confirmed.stdout)\(confirmed.stderr)")
        let none = try CLIRunner.run(["proposals", id], server: d.baseURL, token: nurse)
        #expect(none.stdout.contains("No proposals."))
        try Data("<HealthData>".utf8).write(to: export)
        let broken = try CLIRunner.run(["import", "apple-health", id, export.path], server: d.baseURL, token: nurse)
        #expect(broken.status == 1 && broken.stderr.contains("truncated"), "\(broken.status) \(broken.stdout) \(broken.stderr)")
    }
}
