import HTJSON

/// The one placeholder a patient text may carry: `{emergencyNumber}`, filled with the site's
/// `app.emergencyNumber` wherever the text reaches a person. The rule file holds the template (so
/// the rules version names the wording, whatever number a site dials); the number is the site's
/// configuration, not a rule.
public enum EmergencyNumberText {
    public static let placeholder = "{emergencyNumber}"

    /// `text` with every placeholder replaced by `number`.
    public static func fill(_ text: String, number: String) -> String {
        text.split(separator: placeholder, omittingEmptySubsequences: false).joined(separator: number)
    }

    /// Refuses a text whose braces are anything but the placeholder: a misspelt one
    /// (`{emergencynumber}`, `{112}`, a lone `{`) would reach the patient as written, without the
    /// number. `required`: the text must name the number (the emergency instructions).
    static func validate(_ text: String, _ path: String, required: Bool) throws(FieldError) {
        let rest = text.split(separator: placeholder, omittingEmptySubsequences: false)
        if rest.contains(where: { $0.contains("{") || $0.contains("}") }) {
            throw FieldError.invalid(path, "the only placeholder is \(placeholder) (written exactly so)")
        }
        if required && rest.count < 2 {
            throw FieldError.invalid(path, "must name the emergency number as \(placeholder)")
        }
    }
}
