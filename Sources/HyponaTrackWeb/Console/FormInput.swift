import Foundation
import HTJSON
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

/// A posted form read through the API's own field declarations (`BodyField`): the form's text
/// becomes the JSON body the API route would get, so limits and messages are the API's, and a
/// refused value names the same field. Blank fields are absent; numbers accept a decimal comma.
enum FormInput {
    enum Kind { case text, number }

    static func body(_ form: HTTPQueryParameters, _ fields: [(String, Kind)]) -> JSONValue { .object(object(form, fields)) }

    /// The same as an object, to add members to.
    static func object(_ form: HTTPQueryParameters, _ fields: [(String, Kind)]) -> JSONObject {
        var members: [(String, JSONValue)] = []
        for (name, kind) in fields {
            guard let raw = form[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !raw.isEmpty else { continue }
            switch kind {
            case .text: members.append((name, .string(raw)))
            case .number: members.append((name, number(raw)))
            }
        }
        return JSONObject(members)
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

    /// `2026-12-01T08:30` or `2026-12-01T08:30:15` (what an `<input type="datetime-local">`
    /// sends) in `zone`. Anything else is nil: trailing text, a zone or offset (`Z`, `+01:00`:
    /// the time is the patient's wall clock, an offset would be ignored), fractions, 24:00.
    static func localDateTime(_ text: String, zone: ZoneRules) -> Timestamp? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, let date = LocalDate(String(parts[0])) else { return nil }
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2 || clock.count == 3,
              clock.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } })
        else { return nil }
        let numbers = clock.map { Int($0)! }
        let second = numbers.count == 3 ? numbers[2] : 0
        guard numbers[0] < 24, numbers[1] < 60, second < 60, let time = LocalTime(hour: numbers[0], minute: numbers[1]) else { return nil }
        let minute = zone.instant(on: date, at: time)
        return Timestamp(epochSeconds: minute.epochSeconds + Double(second), utcOffsetSeconds: minute.utcOffsetSeconds)
    }

    /// Where a console form shows `error` (its field, else `fallback`) and what it says there,
    /// in the page's language.
    static func refusal(_ error: FieldError, fallback: String, language: Language) -> (field: String, message: String) {
        let field = self.field(error) ?? fallback
        return (field, FieldMessages(language).text(error, for: messageKind(field)))
    }

    /// Where a console form shows a conflict (the field it names, else `fallback`) and what it
    /// says there, in the page's language: worded from its problem, as a field's refusal is.
    static func refusal(conflict problem: DomainError.ConflictProblem?, field: String?, fallback: String,
                        language: Language) -> (field: String, message: String) {
        (field ?? fallback, FieldMessages(language).text(problem))
    }

    /// Where a console form shows that the day's `list` is full (`DomainError.limitReached`) and
    /// what it says there, in the page's language.
    static func refusal(limitReached list: String, limit: Int, at field: String, language: Language) -> (field: String, message: String) {
        (field, FieldMessages(language).limitReached(list, limit))
    }

    /// How a refusal at one of the console forms' fields is worded (`FieldMessages`): the notes
    /// are texts, sodium a number, the lab's time a date and time, a contact's outcome and alert
    /// a choice from a list.
    static func messageKind(_ field: String) -> FieldMessages.Kind? {
        switch field {
        case "note": .text
        case "sodium": .number(decimals: 0)
        case "time": .time
        case "outcome": .option
        case "alertId": .option
        default: nil
        }
    }

    /// The field a refusal names (the first segment of its JSON path), or nil.
    static func field(_ error: FieldError) -> String? {
        error.field.map { String($0.split(separator: ".").first ?? Substring($0)) }
    }
}
