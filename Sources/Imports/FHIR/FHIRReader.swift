import HTJSON
import HyponaTrackCore

/// Reads a FHIR R4 `Observation` or a `Bundle` (collection, transaction, batch, searchset) into
/// sodium Observations and per-entry refusals (docs/product.md, "Imports, proposed then
/// confirmed"). Pure: matching study IDs to patients and windows is the service's.
public enum FHIRReader {
    /// Serum/plasma (2951-2) and blood (2947-0) sodium.
    public static let sodiumCodes: Set<String> = ["2951-2", "2947-0"]
    public static let loincSystem = "http://loinc.org"
    public static let ucumSystem = "http://unitsofmeasure.org"
    public static let bundleTypes: Set<String> = ["collection", "transaction", "batch", "searchset"]

    /// Whose Observations these are: named by `subject` (identifier with `system`, or a
    /// reference to a Patient in the same Bundle), or one patient given by the caller (the
    /// clinical records of that patient's own Apple Health export).
    public enum Subject: Sendable {
        case identifierSystem(String)
        case given(String)
    }

    public struct Result: Sendable, Equatable {
        public var observations: [SodiumObservation] = []
        public var refused: [ImportRefusal] = []
    }

    /// Throws when the document is not an Observation or a Bundle of an accepted type.
    /// A document as uploaded: not valid JSON is refused with the place the parser stopped.
    public static func read(document: [UInt8], subject: Subject) throws(ImportFileError) -> Result {
        let json: JSONValue
        do { json = try JSONParser.parse(document) } catch {
            throw ImportFileError(field: error.path.isEmpty ? nil : error.path, "not valid JSON: \(error.description)")
        }
        return try read(json, subject: subject)
    }

    public static func read(_ json: JSONValue, subject: Subject) throws(ImportFileError) -> Result {
        guard case .object(let root) = json else { throw ImportFileError(field: nil, "expected a FHIR resource (a JSON object)") }
        var result = Result()
        switch root["resourceType"] {
        case .string("Observation"):
            classify(root, entry: label(nil, root, index: nil), position: 0, subject: subject, patients: BundlePatients(), into: &result)
        case .string("Bundle"):
            guard case .string(let type)? = root["type"], bundleTypes.contains(type) else {
                throw ImportFileError(field: "type", "a Bundle of type collection, transaction, batch or searchset")
            }
            let entries: [JSONValue]
            switch root["entry"] {
            case nil, .null?: entries = []
            case .array(let a)?: entries = a
            default: throw ImportFileError(field: "entry", "expected an array of entries")
            }
            let patients = patientIdentifiers(entries, subject: subject)
            for (i, e) in entries.enumerated() {
                guard case .object(let entry) = e else { throw ImportFileError(field: "entry[\(i)]", "expected an object") }
                let fullUrl = string(entry["fullUrl"])
                guard case .object(let resource)? = entry["resource"] else {
                    result.refused.append(ImportRefusal(entry: fullUrl ?? "entry[\(i)]", reason: .otherCode, detail: "the entry has no resource",
                                                        position: i))
                    continue
                }
                let name = label(fullUrl, resource, index: i)
                switch string(resource["resourceType"]) {
                case "Observation":
                    classify(resource, entry: name, fullUrl: fullUrl, position: i, subject: subject, patients: patients, into: &result)
                case "Patient": continue
                case let other:
                    result.refused.append(ImportRefusal(entry: name, reason: .otherCode,
                                                        detail: "a \(other ?? "resource without resourceType"), not an Observation",
                                                        position: i))
                }
            }
        case .string(let other):
            throw ImportFileError(field: "resourceType", "expected Observation or Bundle, not \(other.prefix(40))")
        default:
            throw ImportFileError(field: "resourceType", "expected Observation or Bundle")
        }
        return result
    }

    /// The Bundle's Patients that carry a study ID under the caller's identifier system, as the
    /// Bundle's reference rules find them (https://hl7.org/fhir/R4/bundle.html#references).
    static func patientIdentifiers(_ entries: [JSONValue], subject: Subject) -> BundlePatients {
        var patients = BundlePatients()
        guard case .identifierSystem(let system) = subject else { return patients }
        for e in entries {
            guard case .object(let entry) = e, case .object(let r)? = entry["resource"], string(r["resourceType"]) == "Patient",
                  let studyId = identifierValue(r["identifier"], system: system) else { continue }
            let fullUrl = string(entry["fullUrl"])
            if let fullUrl { patients.byFullUrl[fullUrl, default: []].insert(studyId) }
            // A Patient without a RESTful fullUrl is found by `Patient/ID` from entries that have
            // no base of their own (one that has one resolves against it, exactly).
            if let id = string(r["id"]), fullUrl.flatMap(restfulBase) == nil { patients.byId["Patient/\(id)", default: []].insert(studyId) }
        }
        return patients
    }

    static func classify(_ o: JSONObject, entry: String, fullUrl: String? = nil, position: Int, subject: Subject,
                         patients: BundlePatients, into result: inout Result) {
        func refuse(_ reason: RefusalReason, _ detail: String) {
            result.refused.append(ImportRefusal(entry: entry, reason: reason, detail: detail, position: position))
        }
        let codes = codings(o["code"])
        guard codes.contains(where: { $0.system == loincSystem && sodiumCodes.contains($0.code) }) else {
            let seen = codes.map { "\($0.system.isEmpty ? "" : $0.system + "|")\($0.code)" }.prefix(3).joined(separator: ", ")
            return refuse(.otherCode, "not a sodium Observation (LOINC 2951-2 or 2947-0)" + (seen.isEmpty ? "" : "; code \(seen)"))
        }
        let studyId: String?
        switch subject {
        case .given(let id): studyId = id
        case .identifierSystem(let system):
            switch subjectStudyId(o["subject"], system: system, patients: patients, from: fullUrl) {
            case .found(let id): studyId = id
            case .ambiguous(let ref):
                return refuse(.unknownPatient, "subject.reference \(ref.prefix(120)) names Patients with different study IDs in the Bundle")
            case .unresolved(let ref, let resolved):
                return refuse(.unknownPatient, "subject.reference \(ref.prefix(120))"
                              + (resolved == ref ? "" : " (resolved as \(resolved.prefix(200)))")
                              + " is not a Patient of the Bundle with an identifier of system \(system)")
            case .notFound:
                return refuse(.unknownPatient, "subject has no identifier with system \(system) (nor a reference to such a Patient in the Bundle)")
            }
        }
        let statusText = string(o["status"]) ?? ""
        guard let status = SodiumObservation.Status(rawValue: statusText) else {
            return refuse(.status, "status \(statusText.isEmpty ? "missing" : statusText.prefix(40)): only final, amended and corrected are proposed")
        }
        let key = observationKey(o)
        let read = observationTime(o)
        let time: SodiumObservation.Time? = if case .time(let t) = read { t } else { nil }
        if status == .enteredInError {
            result.observations.append(SodiumObservation(entry: entry, key: key, studyId: studyId, status: status,
                                                         value: quantity(o["valueQuantity"])?.value, time: time, position: position))
            return
        }
        guard let q = quantity(o["valueQuantity"]), let value = q.value else {
            return refuse(.outOfRange, "no numeric valueQuantity.value")
        }
        if let comparator = q.comparator {
            return refuse(.outOfRange, "valueQuantity.comparator \(comparator.prefix(8)): a bound, not a measured value")
        }
        if let code = q.code, q.system == nil || q.system == ucumSystem {
            guard code == "mmol/L" || code == "meq/L" else { return refuse(.unit, "UCUM code \(code.prefix(40)): expected mmol/L or meq/L") }
        } else {
            let unit = (q.unit ?? "").lowercased()
            guard unit == "mmol/l" || unit == "meq/l" else {
                return refuse(.unit, "unit \(q.unit.map { String($0.prefix(40)) } ?? "missing"): expected mmol/L or mEq/L")
            }
        }
        guard ValueRanges.sodium.contains(value) else {
            return refuse(.outOfRange, "\(value) mmol/L is outside \(Int(ValueRanges.sodium.lowerBound))–\(Int(ValueRanges.sodium.upperBound))")
        }
        if case .unreadable(let member, let text) = read {
            return refuse(.noTime, "\(member) \(text) is not a date or a date-time with an offset")
        }
        guard let time else { return refuse(.noTime, "no effectiveDateTime, effectivePeriod.start or issued with a date") }
        result.observations.append(SodiumObservation(entry: entry, key: key, studyId: studyId, status: status, value: value, time: time,
                                                     position: position, version: observationVersion(o)))
    }
}
