import Foundation
import HTJSON
import HTTPServer
import HyponaTrackCore

/// A posted form read through the API's own field declarations (`BodyField`): the form's text
/// becomes the JSON body the API route would get, so limits and messages are the API's, and a
/// refused value names the same field. Blank fields are absent; numbers accept a decimal comma.
enum FormInput {
    enum Kind { case text, number }

    static func body(_ form: HTTPQueryParameters, _ fields: [(String, Kind)]) -> JSONValue {
        var members: [(String, JSONValue)] = []
        for (name, kind) in fields {
            guard let raw = form[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !raw.isEmpty else { continue }
            switch kind {
            case .text: members.append((name, .string(raw)))
            case .number: members.append((name, number(raw)))
            }
        }
        return .object(JSONObject(members))
    }

    /// A typed number (a decimal comma is read as a point); anything else stays text, which the
    /// API's reader refuses as "not a number", naming the field.
    static func number(_ raw: String) -> JSONValue {
        let normalized = raw.replacingOccurrences(of: ",", with: ".")
        if let n = Double(normalized), n.isFinite, normalized.allSatisfy({ "0123456789.+-".contains($0) }) { return .number(n) }
        return .string(raw)
    }

    /// The values as typed, to show again next to their errors.
    static func echo(_ form: HTTPQueryParameters, _ names: [String]) -> [String: String] {
        var out: [String: String] = [:]
        for n in names { out[n] = form[n] ?? "" }
        return out
    }

    /// `2026-12-01T08:30` (an `<input type="datetime-local">`) in `zone`.
    static func localDateTime(_ text: String, zone: ZoneRules) -> Timestamp? {
        let parts = text.split(separator: "T")
        guard parts.count == 2, let date = LocalDate(String(parts[0])), let time = LocalTime(String(parts[1].prefix(5))) else { return nil }
        return zone.instant(on: date, at: time)
    }

    /// The field a refusal names (the first segment of its JSON path), or nil.
    static func field(_ error: FieldError) -> String? {
        error.field.map { String($0.split(separator: ".").first ?? Substring($0)) }
    }
}
