import HTJSON
import HyponaTrackCore

/// One reason as stored with an evaluation or an alert: the rule's code, the level it reached,
/// the measured value and the threshold it was compared with, unrounded (rounded only when shown).
/// Missing-data alerts carry their kind as the code and no value.
public struct StoredReason: Sendable, Equatable {
    public var code: String
    public var level: Level
    public var value: Double?
    public var threshold: Double?

    public init(code: String, level: Level, value: Double?, threshold: Double?) {
        self.code = code
        self.level = level
        self.value = value
        self.threshold = threshold
    }

    public init(_ r: Reason) { self.init(code: r.code.rawValue, level: r.level, value: r.value, threshold: r.threshold) }

    /// Union by code, each code kept at its highest level (first seen wins a tie); red first, then
    /// yellow, then info (docs/clinical-rules.md, "What every evaluation carries"), in first-seen
    /// order within a level — so a red that joins later is not listed after a yellow.
    static func merge(_ a: [StoredReason], _ b: [StoredReason]) -> [StoredReason] {
        var merged: [StoredReason] = []
        for reason in a + b {
            if let i = merged.firstIndex(where: { $0.code == reason.code }) {
                if reason.level > merged[i].level { merged[i] = reason }
            } else {
                merged.append(reason)
            }
        }
        return merged.enumerated().sorted { x, y in
            x.element.level != y.element.level ? x.element.level > y.element.level : x.offset < y.offset
        }.map(\.element)
    }

    static func codes(_ reasons: [StoredReason], at level: Level) -> Set<String> {
        Set(reasons.filter { $0.level == level }.map(\.code))
    }
}

/// The `reasons` column: a JSON array of `{code, level, value, threshold}` at full precision.
/// Rows written before reasons were stored unrounded hold 6-decimal values; both read the same way.
/// `package`: scripts/bench-reasons measures the reading.
package enum StoredReasonsColumn {
    /// One element as stored.
    private struct Element: Encodable {
        let code: String
        let level: String
        let value: Double?
        let threshold: Double?
    }

    package static func encode(_ reasons: [StoredReason]) -> String {
        let elements = reasons.map { Element(code: $0.code, level: $0.level.rawValue, value: $0.value, threshold: $0.threshold) }
        return (try? JSONTextEncoder.string(elements)) ?? "[]"
    }

    /// Read leniently: an element that is not a reason (not an object, a member missing or of
    /// another type, an unknown level) is skipped; text that is not a JSON array reads as none.
    /// HTJSON's reader, not Foundation's JSONDecoder: every evaluation and alert read passes
    /// here, and the decoder cost several times as much (scripts/bench-reasons).
    package static func decode(_ text: String) -> [StoredReason] {
        guard let elements = ObjectReader.elements(ofArray: text) else { return [] }
        let string = JSONRead<String>.string(length: 0...Int.max), number = JSONRead<Double>.number(-.infinity ... .infinity)
        return elements.compactMap { r -> StoredReason? in
            guard let r else { return nil }
            do throws(FieldError) {
                guard let level = Level(rawValue: try r.required("level", string)) else { return nil }
                return StoredReason(code: try r.required("code", string), level: level, value: try r.optional("value", number),
                                    threshold: try r.optional("threshold", number))
            } catch {
                return nil
            }
        }
    }
}
