import Foundation
import HTJSON
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The ward board's "last submission" is the patient's own: a nurse's correction of a day and a
/// confirmed import (a day value or a lab) are written later but are no sign of life from the
/// patient. In process, with a clock the test sets, so "later" is hours, not milliseconds.
@Suite struct BoardLastSubmissionTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// The Berlin date `offset` days from `t`.
    static func date(_ t: Double, _ offset: Int) -> String {
        ISO8601DateFormatter.string(from: Date(timeIntervalSince1970: t + Double(offset) * 86_400), timeZone: berlin,
                                    formatOptions: [.withFullDate])
    }

    /// `date` at 09:00 Berlin time: ISO 8601 for FHIR, the Health app's format for its export.
    static func nine(_ date: String, healthFormat: Bool) -> String {
        let noon = ISO8601DateFormatter().date(from: "\(date)T12:00:00Z")!
        let minutes = berlin.secondsFromGMT(for: noon) / 60
        let sign = minutes < 0 ? "-" : "+"
        let offset = String(format: "%@%02d%@%02d", sign, abs(minutes) / 60, healthFormat ? "" : ":", abs(minutes) % 60)
        return healthFormat ? "\(date) 09:00:00 \(offset)" : "\(date)T09:00:00\(offset)"
    }

    /// Uploads `body` to an import route and confirms everything it proposed.
    static func importAndConfirm(_ h: InProcessApplication, _ path: String, _ contentType: String, _ body: String) throws {
        let headers: HTTPHeaders = ["Authorization": "Bearer \(h.adminToken)", "Content-Type": contentType]
        let response = h.client.send(.post, path, headers: headers, body: body)
        guard response.status.rawValue == 200, case .object(let report) = try JSONParser.parse(response.body),
              case .array(let proposed)? = report["proposed"], !proposed.isEmpty else {
            throw TestError("\(path): \(response.status.rawValue) \(String(decoding: response.body, as: UTF8.self))")
        }
        for case .number(let id) in proposed {
            let confirmed = h.send(.post, "/v1/proposals/\(Int(id))/confirm", body: ["note": "checked"])
            guard confirmed.status == 200 else { throw TestError("confirm \(Int(id)): \(confirmed.json)") }
        }
    }

    func lastSubmission(_ h: InProcessApplication, _ studyId: String) throws -> Int64?? {
        try h.app.service.patients.board(scope: .allSites).rows.first { $0.patient.studyId == studyId }.map(\.lastSubmissionAt)
    }

    @Test func aCorrectionOrAConfirmedImportAfterThePatientsSubmissionLeavesTheLastSubmissionAlone() throws {
        let t0 = Date().timeIntervalSince1970.rounded()
        let clock = SimulationClock(t0)
        let h = try InProcessApplication(clock: clock)
        let surgery = Self.date(t0, -6), day = Self.date(t0, -1)
        let patient = try h.enrollAndActivate("LAST-1", surgeryDate: surgery)
        _ = try h.enrollAndActivate("LAST-2", surgeryDate: surgery)
        #expect(h.send(.put, "/v1/me/days/\(day)", body: ["weightMorningKg": 80.0], token: patient).status == 200)
        #expect(try lastSubmission(h, "LAST-1") == .some(epochMilliseconds(t0)))

        clock.set(t0 + 3 * 3600)
        for id in ["LAST-1", "LAST-2"] {
            let corrected = h.send(.patch, "/v1/patients/\(id)/days/\(day)", body: ["fluidIntakeMl": 1500.0])
            #expect(corrected.status == 200, "\(corrected.json)")
            let health = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
                + " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" creationDate=\"\(Self.nine(day, healthFormat: true))\""
                + " startDate=\"\(Self.nine(day, healthFormat: true))\" endDate=\"\(Self.nine(day, healthFormat: true))\" value=\"3000\"/>\n</HealthData>\n"
            try Self.importAndConfirm(h, "/v1/patients/\(id)/imports/apple-health", "application/xml", health)
            let sodium: JSONValue = [
                "resourceType": "Observation", "id": .string("na-\(id)"), "status": "final",
                "code": ["coding": [["system": "http://loinc.org", "code": "2951-2"]]],
                "subject": ["identifier": ["system": "urn:hyponatrack:study-id", "value": .string(id)]],
                "valueQuantity": ["value": 138, "unit": "mmol/L", "system": "http://unitsofmeasure.org", "code": "mmol/L"],
                "effectiveDateTime": .string(Self.nine(day, healthFormat: false)),
            ]
            try Self.importAndConfirm(h, "/v1/imports/fhir", "application/fhir+json", JSONSerializer.string(sodium))
        }
        #expect(try lastSubmission(h, "LAST-1") == .some(epochMilliseconds(t0)), "the patient's own submission, three hours before")
        #expect(try lastSubmission(h, "LAST-2") == .some(nil), "staff wrote the day; the patient never submitted")
    }
}
