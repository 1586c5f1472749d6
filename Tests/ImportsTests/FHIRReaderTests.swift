import HTJSON
import HyponaTrackCore
import Imports
import Testing

/// FHIR R4 documents built for the tests, with the traps of docs/product.md's import rules.
enum SyntheticFHIR {
    static let system = "urn:hyponatrack:study-id"

    static func sodium(id: String, code: String = "2951-2", status: String = "final", value: Double? = 131, unit: String? = "mmol/L",
                       ucum: String? = "mmol/L", time: String? = "2026-11-20T07:10:00+01:00", subject: JSONValue? = nil) -> JSONValue {
        var o = JSONObject([("resourceType", "Observation"), ("id", .string(id)), ("status", .string(status)),
                            ("code", ["coding": [["system": "http://loinc.org", "code": .string(code)]]])])
        o["subject"] = subject ?? ["identifier": ["system": .string(system), "value": "HT-001"]]
        if let value {
            var q = JSONObject([("value", .number(value))])
            if let unit { q["unit"] = .string(unit) }
            if let ucum { q["system"] = "http://unitsofmeasure.org"; q["code"] = .string(ucum) }
            o["valueQuantity"] = .object(q)
        }
        if let time { o["effectiveDateTime"] = .string(time) }
        return .object(o)
    }

    static func bundle(_ type: String = "collection", _ resources: [(String?, JSONValue)]) -> JSONValue {
        ["resourceType": "Bundle", "type": .string(type),
         "entry": .array(resources.map { url, r in
             var e = JSONObject([("resource", r)])
             if let url { e["fullUrl"] = .string(url) }
             return .object(e)
         })]
    }

    static let patient: JSONValue = ["resourceType": "Patient", "id": "p1",
                                     "identifier": [["system": .string(system), "value": "ht-001"]]]
}

@Suite struct FHIRReaderTests {
    typealias F = SyntheticFHIR

    func read(_ json: JSONValue) throws -> FHIRReader.Result { try FHIRReader.read(json, subject: .identifierSystem(F.system)) }

    @Test func bundleWithTrapsYieldsSodiumObservationsAndRefusalsPerEntry() throws {
        let result = try read(F.bundle("collection", [
            ("urn:uuid:p1", F.patient),
            ("urn:uuid:o1", F.sodium(id: "o1", subject: ["reference": "urn:uuid:p1"])),
            (nil, F.sodium(id: "k1", code: "2823-3", value: 4.1)),
            (nil, F.sodium(id: "o2", status: "preliminary")),
            (nil, F.sodium(id: "o3", value: 95)),
            (nil, F.sodium(id: "o4", unit: "mg/dL", ucum: nil)),
            (nil, F.sodium(id: "o5", value: 129, unit: nil, ucum: "meq/L", time: "2026-11-21")),
            (nil, F.sodium(id: "o6", time: nil)),
            (nil, F.sodium(id: "o7", subject: ["display": "Anna"])),
            (nil, F.sodium(id: "o8", subject: ["reference": "Patient/p1"])),
            (nil, F.sodium(id: "o9", value: 130, unit: "MEQ/L", ucum: nil)),
            (nil, ["resourceType": "DiagnosticReport", "id": "d1"]),
        ]))
        let observations: [SodiumObservation] = result.observations
        #expect(observations.map { $0.entry } == ["urn:uuid:o1", "Observation/o5", "Observation/o8", "Observation/o9"])
        #expect(observations.map { $0.studyId } == ["ht-001", "HT-001", "ht-001", "HT-001"])
        #expect(observations.map { $0.value } == [131, 129, 131, 130])
        #expect(result.observations[1].time == .date(LocalDate("2026-11-21")!))
        #expect(result.observations[0].key == "id:o1")
        #expect(result.refused.map { $0.entry } == ["Observation/k1", "Observation/o2", "Observation/o3", "Observation/o4",
                                               "Observation/o6", "Observation/o7", "DiagnosticReport/d1"])
        #expect(result.refused.map { $0.reason } == [.otherCode, .status, .outOfRange, .unit, .noTime, .unknownPatient, .otherCode])
    }

    @Test func aSingleObservationIsRead() throws {
        let result = try read(F.sodium(id: "solo"))
        #expect(result.observations.count == 1 && result.refused.isEmpty)
    }

    @Test func identifierIsPreferredToIdAsTheObservationsKey() throws {
        guard case .object(var o) = F.sodium(id: "server-7") else { return }
        o["identifier"] = [["system": "urn:lab", "value": "A-1"]]
        #expect(try read(.object(o)).observations.first?.key == "identifier:urn:lab|A-1")
    }

    @Test func enteredInErrorNeedsNoValue() throws {
        let result = try read(F.sodium(id: "o1", status: "entered-in-error", value: nil))
        #expect(result.observations.first?.status == .enteredInError)
    }

    @Test func bundleOfAnotherTypeIsRefusedNamingType() {
        #expect(throws: ImportFileError(field: "type", "a Bundle of type collection, transaction, batch or searchset")) {
            try read(F.bundle("document", []))
        }
        #expect { try read(["resourceType": "Patient"]) } throws: { ($0 as? ImportFileError)?.field == "resourceType" }
    }

    @Test func everyAcceptedBundleTypeIsRead() throws {
        for type in ["collection", "transaction", "batch", "searchset"] {
            #expect(try read(F.bundle(type, [(nil, F.sodium(id: "x"))])).observations.count == 1)
        }
    }
}
