import HyponaTrackCore

/// The words staff read for codes in event bodies: reason codes (docs/clinical-rules.md §3–§5, §8), levels,
/// reminder tasks and kinds. Used by the e-mail text; one place to change a phrase (a reason's
/// short label is `Vocabulary.reason`, shared with the console and the report). Clinical facts
/// the words name (how many silent days make `no_data_2d`, which symptoms are emergencies) are
/// read from the rules in force, never restated here.
enum AlertWording {
    struct Phrase {
        /// A few words for a subject line, e.g. "confusion".
        let short: String
        /// The phrase in the body, e.g. "new confusion".
        let long: String
    }

    /// The phrase for a reason code under `rules`; an unknown code is shown as itself. The short
    /// form is the label the console and the report show (`Vocabulary.reason`, which names the
    /// silent days of `no_data_2d` that `rules` count), so the three agree.
    static func phrase(for code: String, rules: RuleSet) -> Phrase {
        let short = Vocabulary(language: .en).reason(code, noDataDays: rules.reminders.noDataDays)
        return Phrase(short: short, long: body(code, rules: rules) ?? short)
    }

    /// The longer phrase of an e-mail's body where it says more than the label.
    private static func body(_ code: String, rules: RuleSet) -> String? {
        switch code {
        case "weight_gain_pct": "weight gain vs baseline"
        case "weight_gain_24h": "weight gain since the previous morning"
        case "fluid_excess": "fluid intake over the limit"
        case "symptom_score": "high symptom score"
        case "reaction_time": "reaction time slower than baseline"
        case "urine_sg_support": "concentrated urine (supporting sign)"
        case "confusion": "new confusion"
        case "emergency_symptom":
            // The event carries how many were reported, not which: name the ones the rules list (§4).
            "emergency symptom (\(alternatives(rules.thresholds.emergencySymptoms))); the patient was told to call emergency services"
        case "sodium_profound": "profoundly low lab sodium"
        case "sodium_symptomatic": "low lab sodium with nausea, headache or confusion"
        case "sodium_fall_acute": "acute fall of lab sodium"
        case "sodium_fall": "fall of lab sodium"
        case "fluid_over_limit_2d": "fluid intake over the limit two days running"
        case "possible_di": "possible diabetes insipidus (weight loss or dilute urine)"
        case "multiple_yellow": "warning signs in several signal groups"
        case "missing_checkin": "no morning or evening check by the evening deadline"
        case "no_data_2d": "no data from the patient for \(Vocabulary(language: .en).days(rules.reminders.noDataDays))"
        default: nil
        }
    }

    /// The level in capitals with what it asks of staff.
    static func level(_ level: String) -> String {
        switch level {
        case "red": "RED — present to the emergency department now"
        case "yellow": "YELLOW — call the patient back today"
        case "green": "GREEN — continue routine monitoring"
        default: level.uppercased()
        }
    }

    /// A patient task (docs/clinical-rules.md §6) in words.
    static func task(_ name: String) -> String {
        switch name {
        case "weight_morning": "morning weight"
        case "symptoms_morning": "morning symptom check"
        case "urine_sg": "urine specific gravity"
        case "fluid_log": "fluid log"
        case "reaction_test": "reaction test"
        case "tapping_test": "tapping test"
        case "weight_evening": "evening weight"
        case "symptoms_evening": "evening symptom check"
        case "desmopressin": "desmopressin dose"
        default: name
        }
    }

    /// A reminder kind (docs/clinical-rules.md §7) in words.
    static func reminderKind(_ kind: String) -> String {
        switch kind {
        case "check": "check reminder"
        case "missed": "missed-deadline reminder"
        case "task": "task reminder"
        case "catch_up": "catch-up reminder"
        default: kind
        }
    }

    /// "a", "a or b", "a, b or c".
    static func alternatives(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " or " + last
    }

    /// `value` rounded to at most `digits` decimals, without trailing zeros ("4", "4.1", "1.0172").
    static func number(_ value: Double, digits: Int = 2) -> String {
        guard value.isFinite else { return String(value) }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 1e15 else { return String(value) }
        let whole = Int64(scaled)
        let unit = Int64(scale)
        var text = String(whole / unit)
        let fraction = whole % unit
        if digits > 0, fraction != 0 {
            var digitsText = String(fraction)
            digitsText = String(repeating: "0", count: digits - digitsText.count) + digitsText
            while digitsText.last == "0" { digitsText.removeLast() }
            text += "." + digitsText
        }
        return (value < 0 && whole != 0 ? "-" : "") + text
    }
}
