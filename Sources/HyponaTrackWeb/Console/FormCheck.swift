import HTJSON
import HyponaTrackDomain

/// Every problem of a posted console form at once, found by the API's own decoder (no second
/// set of rules): decode; on a refusal note it at its field, put the field's `stand-in` (a value
/// the decoder accepts) in its place, or drop it, and decode again, until the body passes or a
/// field is refused twice. The stand-ins only let the decoder reach the next field; a body with
/// any refusal is never used.
struct FormCheck {
    /// A refusal as the decoder gave it (worded for the page later), or already worded.
    enum Refusal {
        case error(FieldError)
        case said(String)
    }

    /// Refusals by form field (`katB.podSodium`, `reason`), in the order they were met.
    private(set) var refusals: [(field: String, refusal: Refusal)] = []

    init() {}

    /// One refusal at `field`, already in the page's language (a service's conflict, say).
    init(_ field: String, said message: String) { refusals = [(field, .said(message))] }

    var isEmpty: Bool { refusals.isEmpty }

    /// Notes `error` at `field` unless that field has one already (the first is the one to fix).
    mutating func note(_ field: String, _ error: FieldError) { note(field, .error(error)) }

    mutating func note(_ field: String, said message: String) { note(field, .said(message)) }

    private mutating func note(_ field: String, _ refusal: Refusal) {
        guard !refusals.contains(where: { $0.field == field }) else { return }
        refusals.append((field, refusal))
    }

    /// `decode(body)` once every field passes; nil (with the refusals noted) when any does not.
    /// `fieldOf` maps a refusal to the form's field (nil: `fallback`).
    mutating func decode<T>(_ body: JSONObject, standIns: JSONObject = JSONObject(), fallback: String,
                            fieldOf: (FieldError) -> String? = FormCheck.formField,
                            _ decode: (JSONValue) throws(FieldError) -> T) -> T? {
        var current = body
        var seen: Set<String> = []
        for _ in 0...(body.count + standIns.count + 1) {
            do {
                let value = try decode(.object(current))
                return isEmpty ? value : nil
            } catch {
                let field = fieldOf(error) ?? fallback
                note(field, error)
                guard seen.insert(field).inserted, field != fallback || fieldOf(error) != nil else { return nil }
                Self.set(&current, path: field, to: Self.value(standIns, path: field))
            }
        }
        return nil
    }

    /// The form field a refusal names: its JSON path without a list index (`riskMedications[1]`
    /// → `riskMedications`), nested members kept (`katB.podSodium`).
    static func formField(_ error: FieldError) -> String? {
        guard let path = error.field, !path.isEmpty else { return nil }
        return String(path.prefix { $0 != "[" })
    }

    /// The member at a dotted `path`, or nil.
    static func value(_ object: JSONObject, path: String) -> JSONValue? {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        guard let first = object[parts[0]] else { return nil }
        guard parts.count == 2 else { return first }
        guard case .object(let inner) = first else { return nil }
        return value(inner, path: parts[1])
    }

    /// Sets (nil: removes) the member at a dotted `path`, making the objects on the way.
    static func set(_ object: inout JSONObject, path: String, to value: JSONValue?) {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { object[parts[0]] = value; return }
        var inner: JSONObject
        if case .object(let o)? = object[parts[0]] { inner = o } else { inner = JSONObject() }
        set(&inner, path: parts[1], to: value)
        object[parts[0]] = .object(inner)
    }
}
