import HTJSON

/// The one placeholder a patient text may carry: `{emergencyNumber}`, filled with the site's
/// `app.emergencyNumber` wherever the text reaches a person. The rule file holds the template (so
/// the rules version names the wording, whatever number a site dials); the number is the site's
/// configuration, not a rule.
public enum EmergencyNumberText {
    public static let placeholder = "{emergencyNumber}"

    /// `text` with every placeholder replaced by `number`. On every answer to a submission, so
    /// a byte scan (the standard library's `split(separator:)` with a string separator builds a
    /// substring searcher each time, ≈ 130,000 instructions per answer).
    public static func fill(_ text: String, number: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        return pieces(text).joined(separator: number)
    }

    /// The parts of `text` around its placeholders (one more than there are placeholders).
    static func pieces(_ text: String) -> [Substring] {
        let utf8 = text.utf8
        let pattern = placeholder.utf8
        var pieces: [Substring] = []
        var pieceStart = utf8.startIndex
        var next = utf8.startIndex
        while let brace = utf8[next...].firstIndex(of: UInt8(ascii: "{")) {
            if utf8[brace...].starts(with: pattern) {
                pieces.append(text[pieceStart..<brace])
                next = utf8.index(brace, offsetBy: pattern.count)
                pieceStart = next
            } else {
                next = utf8.index(after: brace)
            }
        }
        pieces.append(text[pieceStart...])
        return pieces
    }

    /// Refuses a text whose braces are anything but the placeholder: a misspelt one
    /// (`{emergencynumber}`, `{112}`, a lone `{`) would reach the patient as written, without the
    /// number. `required`: the text must name the number (the emergency instructions).
    static func validate(_ text: String, _ path: String, required: Bool) throws(FieldError) {
        let rest = pieces(text)
        if rest.contains(where: { $0.contains("{") || $0.contains("}") }) {
            throw FieldError.invalid(path, "the only placeholder is \(placeholder) (written exactly so)")
        }
        if required && rest.count < 2 {
            throw FieldError.invalid(path, "must name the emergency number as \(placeholder)")
        }
    }
}
