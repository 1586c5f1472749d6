import HTJSON
import HyponaTrackCore

/// The model's JSON forms as text, for code that stores or embeds them without handling JSON
/// values itself (the domain: the stored profile, the audit trail's before/after of items).
public enum ModelText {
    /// The profile as stored and audited (`ModelJSON.profile`).
    public static func profile(_ p: PatientProfile) -> JSONText { JSONText(JSONSerializer.string(ModelJSON.profile(p))) }

    /// A stored profile read back; `rules` nil accepts any well-formed code (profiles stored
    /// under earlier rules).
    public static func profile(from text: String, rules: RuleSet? = nil) throws -> PatientProfile {
        try ProfileDecoder.decode(try JSONParser.parse(text), path: "profile", rules: rules)
    }

    public static func symptom(_ s: SymptomEntry) -> JSONText { JSONText(JSONSerializer.string(ModelJSON.symptom(s))) }
    public static func reactionTest(_ r: ReactionTest) -> JSONText { JSONText(JSONSerializer.string(ModelJSON.reactionTest(r))) }
    public static func tappingTest(_ t: TappingTest) -> JSONText { JSONText(JSONSerializer.string(ModelJSON.tappingTest(t))) }
    public static func desmopressinDose(_ d: DesmopressinDose) -> JSONText { JSONText(JSONSerializer.string(ModelJSON.desmopressinDose(d))) }

    /// The item `id` of the day's list `list` (its member name in `ModelJSON.day`, e.g.
    /// `symptoms`), as the patient API shows it; nil if the day has no such item.
    public static func item(of day: DailyEntry, list: String, id: String) -> JSONText? {
        guard case .object(let o) = ModelJSON.day(day, includeDate: false), case .array(let items)? = o[list] else { return nil }
        let item = items.first { if case .object(let i) = $0 { return i["id"] == .string(id) } else { return false } }
        return item.map { JSONText(JSONSerializer.string($0)) }
    }
}

/// A partial profile in the case format (`PATCH /v1/patients/{studyId}`): nested `katB`/`katC`
/// objects merge member by member and null clears; the merged profile is validated as a whole,
/// so the patch stays in its JSON form until it is merged.
public struct ProfilePatch: Sendable, Equatable {
    let members: JSONObject

    public init(_ members: JSONObject) { self.members = members }

    /// The profile with the patch merged, validated under `rules`.
    public func applied(to profile: PatientProfile, rules: RuleSet) throws(FieldError) -> PatientProfile {
        try ProfileDecoder.decode(Self.merge(ModelJSON.profile(profile), .object(members)), path: "", rules: rules)
    }

    /// `{field: {before, after}}` for every changed leaf (nested fields as `katB.csfLeak`), the
    /// audit trail's record of a profile update.
    public static func changes(from before: PatientProfile, to after: PatientProfile) -> JSONText {
        JSONText(JSONSerializer.string(diff(ModelJSON.profile(before), ModelJSON.profile(after))))
    }

    /// Objects merge member by member (recursively); any other value replaces.
    static func merge(_ base: JSONValue, _ patch: JSONValue) -> JSONValue {
        guard case .object(var b) = base, case .object(let p) = patch else { return patch }
        for (key, value) in p.members {
            if case .object = value, let existing = b[key], case .object = existing {
                b[key] = merge(existing, value)
            } else {
                b[key] = value
            }
        }
        return .object(b)
    }

    static func diff(_ before: JSONValue, _ after: JSONValue, prefix: String = "") -> JSONValue {
        var out = JSONObject()
        func walk(_ b: JSONValue?, _ a: JSONValue?, _ path: String) {
            if case .object(let bo)? = b, case .object(let ao)? = a {
                for key in Set(bo.keys).union(ao.keys).sorted() { walk(bo[key], ao[key], path.isEmpty ? key : "\(path).\(key)") }
            } else if b != a {
                out[path] = ["before": b ?? .null, "after": a ?? .null]
            }
        }
        walk(before, after, prefix)
        return .object(out)
    }
}
