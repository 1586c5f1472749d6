import Foundation
import HTJSON
import HyponaTrackCore

/// The members of a FHIR resource the reader looks at, read leniently: a member of the wrong
/// shape is as good as absent, and the entry is then refused for what is missing.
extension FHIRReader {
    static func string(_ v: JSONValue?) -> String? {
        if case .string(let s)? = v { return s }
        return nil
    }

    static func label(_ fullUrl: String?, _ resource: JSONObject, index: Int?) -> String {
        if let fullUrl, !fullUrl.isEmpty { return String(fullUrl.prefix(200)) }
        if let id = string(resource["id"]) { return "\(string(resource["resourceType"]) ?? "resource")/\(id.prefix(64))" }
        return index.map { "entry[\($0)]" } ?? (string(resource["resourceType"]) ?? "resource")
    }

    static func codings(_ v: JSONValue?) -> [(system: String, code: String)] {
        guard case .object(let concept)? = v, case .array(let codings)? = concept["coding"] else { return [] }
        return codings.compactMap { c in
            guard case .object(let o) = c, let code = string(o["code"]) else { return nil }
            return (string(o["system"]) ?? "", code)
        }
    }

    /// The study ID an `identifier` array names under `system` (first match).
    static func identifierValue(_ v: JSONValue?, system: String) -> String? {
        guard case .array(let ids)? = v else { return nil }
        for i in ids {
            if case .object(let o) = i, string(o["system"]) == system, let value = string(o["value"]), !value.isEmpty { return value }
        }
        return nil
    }

    /// The Bundle's Patients with a study ID: by `fullUrl`, and by `Patient/ID` (those without a
    /// RESTful fullUrl) with every study ID that id names.
    struct BundlePatients {
        /// Every study ID a fullUrl names: two entries with one fullUrl that disagree are refused,
        /// not decided by their order.
        var byFullUrl: [String: Set<String>] = [:]
        var byId: [String: Set<String>] = [:]
    }

    enum SubjectMatch: Equatable {
        case found(String)
        case ambiguous(String)
        /// `subject.reference` names no Patient of the Bundle with a study ID: the reference as
        /// written and what it resolves to.
        case unresolved(reference: String, resolved: String)
        case notFound
    }

    /// Whose the Observation is: `subject.identifier` under `system`, else `subject.reference`
    /// resolved as the Bundle rules say. An absolute reference must be a Patient's fullUrl
    /// exactly; a relative one resolves against the referencing entry's RESTful base
    /// (`BASE/Observation/x` → `BASE/Patient/ID`, and only that: a Patient of that id elsewhere
    /// in the Bundle is another server's), or, from an entry without one, to the Patients of
    /// that id, and only when they agree on the study ID.
    static func subjectStudyId(_ v: JSONValue?, system: String, patients: BundlePatients, from fullUrl: String?) -> SubjectMatch {
        guard case .object(let subject)? = v else { return .notFound }
        if case .object(let id)? = subject["identifier"], string(id["system"]) == system, let value = string(id["value"]), !value.isEmpty {
            return .found(value)
        }
        guard let ref = string(subject["reference"]), !ref.isEmpty else { return .notFound }
        func one(_ named: Set<String>?, resolved: String) -> SubjectMatch {
            guard let named else { return .unresolved(reference: ref, resolved: resolved) }
            return named.count == 1 ? .found(named.first!) : .ambiguous(ref)
        }
        if isAbsolute(ref) { return one(patients.byFullUrl[ref], resolved: ref) }
        let relative = withoutHistory(ref)
        if let base = fullUrl.flatMap(restfulBase) {
            let resolved = base + "/" + relative
            return one(patients.byFullUrl[resolved], resolved: resolved)
        }
        return one(patients.byId[relative], resolved: relative)
    }

    static func isAbsolute(_ ref: String) -> Bool { ref.contains("://") || ref.hasPrefix("urn:") }

    /// `Patient/ID` of `Patient/ID/_history/V`.
    static func withoutHistory(_ ref: String) -> String {
        guard let h = ref.range(of: "/_history/") else { return ref }
        return String(ref[..<h.lowerBound])
    }

    /// The server base of a RESTful fullUrl (`https://lab/fhir/Observation/1` → `https://lab/fhir`):
    /// everything before `/TYPE/ID` (with an optional `/_history/V`); nil for `urn:` and others.
    static func restfulBase(_ fullUrl: String) -> String? {
        guard fullUrl.contains("://") else { return nil }
        var parts = withoutHistory(fullUrl).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 5, let type = parts.dropLast().last, let first = type.first, first.isUppercase,
              !(parts.last ?? "").isEmpty else { return nil }
        parts.removeLast(2)
        return parts.joined(separator: "/")
    }

    /// `identifier:SYSTEM|VALUE` of the first identifier, else `id:ID`.
    static func observationKey(_ o: JSONObject) -> String? {
        if case .array(let ids)? = o["identifier"] {
            for i in ids {
                if case .object(let id) = i, let value = string(id["value"]), !value.isEmpty {
                    return "identifier:\(string(id["system"]) ?? "")|\(value)".prefixed(300)
                }
            }
        }
        return string(o["id"]).map { "id:\($0)".prefixed(300) }
    }

    enum TimeRead: Equatable {
        case time(SodiumObservation.Time)
        /// Present but not a date or a date-time with an offset: not passed over for a later member.
        case unreadable(member: String, text: String)
        case absent
    }

    /// `effectiveDateTime`, else `effectivePeriod.start`, else `issued`: the first that is
    /// present. One that is present but unreadable is reported as such; falling back to the
    /// next would put a measurement on the day its report was issued.
    static func observationTime(_ o: JSONObject) -> TimeRead {
        var candidates: [(String, JSONValue?)] = [("effectiveDateTime", o["effectiveDateTime"])]
        if case .object(let period)? = o["effectivePeriod"] { candidates.append(("effectivePeriod.start", period["start"])) }
        candidates.append(("issued", o["issued"]))
        for (member, value) in candidates {
            guard let value, !value.isNull else { continue }
            guard let text = string(value) else { return .unreadable(member: member, text: value.typeName) }
            if text.utf8.count == 10, let d = LocalDate(text) { return .time(.date(d)) }
            if let t = Timestamp(text) { return .time(.instant(t)) }
            return .unreadable(member: member, text: String(text.prefix(40)))
        }
        return .absent
    }

    static func observationVersion(_ o: JSONObject) -> SodiumObservation.Version {
        var v = SodiumObservation.Version(issued: string(o["issued"]).flatMap(Timestamp.init))
        if case .object(let meta)? = o["meta"] {
            v.versionId = string(meta["versionId"]).flatMap { $0.isEmpty ? nil : $0 }
            v.lastUpdated = string(meta["lastUpdated"]).flatMap(Timestamp.init)
        }
        return v
    }

    struct Quantity {
        var value: Double?
        var unit: String?
        var system: String?
        var code: String?
        /// `<`, `<=`, `>=`, `>`, `ad`: the value is a bound, not a measurement.
        var comparator: String?
    }

    static func quantity(_ v: JSONValue?) -> Quantity? {
        guard case .object(let q)? = v else { return nil }
        var value: Double?
        if case .number(let n)? = q["value"] { value = n }
        return Quantity(value: value, unit: string(q["unit"]), system: string(q["system"]), code: string(q["code"]),
                        comparator: string(q["comparator"]))
    }
}

extension String {
    func prefixed(_ n: Int) -> String { count <= n ? self : String(prefix(n)) }
}
