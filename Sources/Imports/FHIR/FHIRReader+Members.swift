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

    static func subjectStudyId(_ v: JSONValue?, system: String, patients: [String: String]) -> String? {
        guard case .object(let subject)? = v else { return nil }
        if case .object(let id)? = subject["identifier"], string(id["system"]) == system, let value = string(id["value"]), !value.isEmpty {
            return value
        }
        guard let ref = string(subject["reference"]) else { return nil }
        if let hit = patients[ref] { return hit }
        // An absolute fullUrl `https://…/Patient/ID` is also named by the relative `Patient/ID`.
        if let slash = ref.range(of: "Patient/", options: .backwards) { return patients[String(ref[slash.lowerBound...])] }
        return nil
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

    /// `effectiveDateTime`, else `effectivePeriod.start`, else `issued`.
    static func observationTime(_ o: JSONObject) -> SodiumObservation.Time? {
        var candidates = [string(o["effectiveDateTime"])]
        if case .object(let period)? = o["effectivePeriod"] { candidates.append(string(period["start"])) }
        candidates.append(string(o["issued"]))
        for c in candidates {
            guard let text = c else { continue }
            if text.utf8.count == 10, let d = LocalDate(text) { return .date(d) }
            if let t = Timestamp(text) { return .instant(t) }
        }
        return nil
    }

    struct Quantity {
        var value: Double?
        var unit: String?
        var system: String?
        var code: String?
    }

    static func quantity(_ v: JSONValue?) -> Quantity? {
        guard case .object(let q)? = v else { return nil }
        var value: Double?
        if case .number(let n)? = q["value"] { value = n }
        return Quantity(value: value, unit: string(q["unit"]), system: string(q["system"]), code: string(q["code"]))
    }
}

extension String {
    func prefixed(_ n: Int) -> String { count <= n ? self : String(prefix(n)) }
}
