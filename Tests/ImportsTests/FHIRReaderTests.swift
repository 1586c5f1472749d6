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

    static func patient(id: String, studyId: String) -> JSONValue {
        ["resourceType": "Patient", "id": .string(id), "identifier": [["system": .string(F.system), "value": .string(studyId)]]]
    }

    /// Two laboratories' Patient/1 in one Bundle: a relative reference resolves against the
    /// referencing entry's own server (FHIR Bundle rules), whatever the order of the entries;
    /// it used to go to the last `Patient/1` listed.
    @Test func aRelativeReferenceResolvesAgainstItsEntrysServer() throws {
        for labAFirst in [true, false] {
            var entries: [(String?, JSONValue)] = [("https://lab-a.example/fhir/Patient/1", Self.patient(id: "1", studyId: "HT-A")),
                                                   ("https://lab-b.example/fhir/Patient/1", Self.patient(id: "1", studyId: "HT-B"))]
            if !labAFirst { entries.reverse() }
            entries.append(("https://lab-a.example/fhir/Observation/x1", F.sodium(id: "x1", subject: ["reference": "Patient/1"])))
            entries.append(("https://lab-b.example/fhir/Observation/x2", F.sodium(id: "x2", subject: ["reference": "Patient/1/_history/3"])))
            let result = try read(F.bundle("collection", entries))
            #expect(result.observations.map(\.studyId) == ["HT-A", "HT-B"], "lab A first: \(labAFirst)")
            #expect(result.refused.isEmpty)
        }
    }

    /// An absolute reference names exactly one fullUrl: a Patient of another server with the
    /// same id is not it.
    @Test func anAbsoluteReferenceToAPatientOutsideTheBundleIsRefused() throws {
        let result = try read(F.bundle("collection", [
            ("https://lab-b.example/fhir/Patient/1", Self.patient(id: "1", studyId: "HT-B")),
            ("https://lab-a.example/fhir/Observation/x1", F.sodium(id: "x1", subject: ["reference": "https://lab-c.example/fhir/Patient/1"])),
            ("https://lab-a.example/fhir/Observation/x2", F.sodium(id: "x2", subject: ["reference": "https://lab-b.example/fhir/Patient/1"])),
        ]))
        #expect(result.refused.map(\.entry) == ["https://lab-a.example/fhir/Observation/x1"])
        #expect(result.refused.map(\.reason) == [.unknownPatient])
        #expect(result.observations.map(\.studyId) == ["HT-B"])
    }

    /// Without a base to resolve against, `Patient/1` that names two patients is refused, not
    /// given to one of them.
    @Test func aReferenceThatNamesPatientsOfDifferentStudyIdsIsRefused() throws {
        let result = try read(F.bundle("collection", [
            ("urn:uuid:a", Self.patient(id: "1", studyId: "HT-A")),
            ("urn:uuid:b", Self.patient(id: "1", studyId: "HT-B")),
            (nil, F.sodium(id: "x1", subject: ["reference": "Patient/1"])),
        ]))
        #expect(result.observations.isEmpty)
        #expect(result.refused.map(\.reason) == [.unknownPatient])
        #expect(result.refused.first?.detail.contains("different study IDs") == true)
    }

    /// A relative reference from an entry whose server lists its own Patients must be one of
    /// them; a Patient of the same id without a fullUrl is not taken in its place.
    @Test func aRelativeReferenceThatItsServerDoesNotHoldIsRefused() throws {
        let result = try read(F.bundle("collection", [
            ("https://lab-a.example/fhir/Patient/1", Self.patient(id: "1", studyId: "HT-A")),
            (nil, Self.patient(id: "2", studyId: "HT-X")),
            ("https://lab-a.example/fhir/Observation/x1", F.sodium(id: "x1", subject: ["reference": "Patient/2"])),
        ]))
        #expect(result.observations.isEmpty)
        #expect(result.refused.map(\.reason) == [.unknownPatient])
    }

    /// An entry with a server of its own resolves `Patient/1` there and nowhere else: a Patient
    /// of that id without a RESTful fullUrl (any laboratory's) is not taken in its place, even
    /// when the entry's server lists no Patients at all (it used to be).
    @Test func aRelativeReferenceIsNotTakenByAPatientOfAnotherServer() throws {
        let result = try read(F.bundle("collection", [
            ("urn:uuid:b1", Self.patient(id: "1", studyId: "HT-B")),
            ("https://lab-a.example/fhir/Observation/x1", F.sodium(id: "x1", subject: ["reference": "Patient/1"])),
        ]))
        #expect(result.observations.isEmpty)
        #expect(result.refused.map(\.reason) == [.unknownPatient])
        #expect(result.refused.first?.detail.contains("subject.reference Patient/1 (resolved as https://lab-a.example/fhir/Patient/1)") == true)
    }

    /// Two Patients under one fullUrl with different study IDs: neither is chosen, whichever is
    /// listed last (the last one used to win).
    @Test func aFullUrlNamingPatientsOfDifferentStudyIdsIsRefused() throws {
        for reversed in [false, true] {
            var patients: [(String?, JSONValue)] = [("https://lab-a.example/fhir/Patient/1", Self.patient(id: "1", studyId: "HT-A")),
                                                    ("https://lab-a.example/fhir/Patient/1", Self.patient(id: "1", studyId: "HT-B"))]
            if reversed { patients.reverse() }
            let result = try read(F.bundle("collection", patients + [
                ("https://lab-a.example/fhir/Observation/x1", F.sodium(id: "x1", subject: ["reference": "Patient/1"])),
                ("urn:uuid:x2", F.sodium(id: "x2", subject: ["reference": "https://lab-a.example/fhir/Patient/1"])),
            ]))
            #expect(result.observations.isEmpty, "reversed: \(reversed)")
            #expect(result.refused.map(\.reason) == [.unknownPatient, .unknownPatient])
            #expect(result.refused.allSatisfy { $0.detail.contains("different study IDs") })
        }
    }

    /// meta.versionId, meta.lastUpdated and issued are read, and ordered in that order: a whole
    /// number versionId decides, an opaque one gives way to lastUpdated.
    @Test func versionsAreOrderedByVersionIdThenLastUpdatedThenIssued() throws {
        guard case .object(var o) = F.sodium(id: "v1") else { Issue.record("fixture shape changed"); return }
        o["meta"] = ["versionId": "2", "lastUpdated": "2026-11-20T09:00:00Z"]
        o["issued"] = "2026-11-20T08:00:00+01:00"
        let v = try #require(try read(.object(o)).observations.first).version
        #expect(v == SodiumObservation.Version(versionId: "2", lastUpdated: Timestamp("2026-11-20T09:00:00Z"),
                                               issued: Timestamp("2026-11-20T08:00:00+01:00")))
        let later = SodiumObservation.Version(versionId: "10", lastUpdated: Timestamp("2026-11-20T08:00:00Z"))
        #expect(v.isOlder(than: later) && !later.isOlder(than: v))
        let opaque = SodiumObservation.Version(versionId: "b", lastUpdated: Timestamp("2026-11-20T10:00:00Z"))
        #expect(v.isOlder(than: opaque))
        #expect(v.isOlder(than: SodiumObservation.Version(issued: Timestamp("2026-11-20T09:00:00+01:00"))))
        #expect(!SodiumObservation.Version().isOlder(than: v) && !v.isOlder(than: SodiumObservation.Version()))
    }

    /// A measurement time that is there but unreadable (no offset) is refused naming it; it used
    /// to fall back to `issued` and put the value on the day the report came out.
    @Test func anUnreadableEffectiveTimeIsRefusedNotReplacedByIssued() throws {
        guard case .object(var o) = F.sodium(id: "t1", time: "2026-11-28T23:30:00") else { Issue.record("fixture shape changed"); return }
        o["issued"] = "2026-11-30T09:00:00+01:00"
        let result = try read(.object(o))
        #expect(result.observations.isEmpty)
        #expect(result.refused.map(\.reason) == [.noTime])
        #expect(result.refused.first?.detail.contains("effectiveDateTime") == true)
        // Absent, `issued` still serves.
        guard case .object(var absent) = F.sodium(id: "t2", time: nil) else { Issue.record("fixture shape changed"); return }
        absent["issued"] = "2026-11-30T09:00:00+01:00"
        #expect(try read(.object(absent)).observations.count == 1)
    }

    /// `"comparator": "<"`: the lab reports a bound (below 100), not a value of 100.
    @Test func aQuantityWithAComparatorIsRefused() throws {
        guard case .object(var o) = F.sodium(id: "c1"), case .object(var q)? = o["valueQuantity"] else { Issue.record("fixture shape changed"); return }
        q["comparator"] = "<"
        o["valueQuantity"] = .object(q)
        let result = try read(.object(o))
        #expect(result.observations.isEmpty)
        #expect(result.refused.map(\.reason) == [.outOfRange])
        #expect(result.refused.first?.detail.contains("comparator") == true)
    }

    @Test func aSingleObservationIsRead() throws {
        let result = try read(F.sodium(id: "solo"))
        #expect(result.observations.count == 1 && result.refused.isEmpty)
    }

    @Test func identifierIsPreferredToIdAsTheObservationsKey() throws {
        guard case .object(var o) = F.sodium(id: "server-7") else { Issue.record("fixture shape changed"); return }
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
