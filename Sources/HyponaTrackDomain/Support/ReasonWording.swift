import HyponaTrackCore

/// Every fired reason as a person reads it, in English and German: the measured quantity in its
/// clinical unit, the threshold it crossed in the same unit, and the level as a word
/// (docs/product.md, third round, C: "Reasons in clinical words"). The console, the PDF report,
/// the alert e-mail, the web check-in and the CSV's `reasons_text` all say a reason this way; the
/// code stays beside it for data people, never as the only text.
///
/// Sodium is always the sodium value: `sodium_low` is computed as a deficit from the rules'
/// normal sodium (docs/clinical-rules.md §3), and is shown as the lab value and the sodium at or
/// below which it fires ("Sodium 129 mmol/L (red at ≤ 129)"), never as the deficit.
public struct ReasonWording: Bilingual, Sendable {
    /// The facts of the rules in force that some reasons are worded with.
    public struct Facts: Sendable, Equatable {
        /// `thresholds.normalSodium`: `sodium_low`'s stored deficit is `normalSodium − Na`.
        public var normalSodium: Double
        /// `missingData.noData.days`, which `no_data_2d` names.
        public var noDataDays: Int
        /// `sodium_fall_acute` fires for a fall to a sodium below this.
        public var acuteFallSodiumBelow: Double
        /// `vomiting` fires at this many episodes alone …
        public var vomitingEpisodesAtLeast: Int
        /// … or at fewer with a lab sodium below this.
        public var vomitingSodiumBelow: Double

        public init(rules: RuleSet) {
            normalSodium = rules.thresholds.normalSodium
            noDataDays = rules.reminders.noDataDays
            acuteFallSodiumBelow = rules.thresholds.triggers.acuteFallSodiumBelow
            vomitingEpisodesAtLeast = rules.thresholds.triggers.vomitingEpisodesAtLeast
            vomitingSodiumBelow = rules.thresholds.triggers.vomitingSodiumBelow
        }
    }

    public let language: Language
    public let facts: Facts

    public init(_ language: Language, rules: RuleSet) {
        self.language = language
        facts = Facts(rules: rules)
    }

    public init(_ language: Language, facts: Facts) {
        self.language = language
        self.facts = facts
    }

    private var format: ClinicalNumberFormat { ClinicalNumberFormat(language: language) }
    private var mmol: String { ClinicalUnits(language: language).sodium }
    private var mL: String { ClinicalUnits(language: language).millilitres }

    /// The reasons, one sentence each, in their stored order (red first).
    public func sentences(_ reasons: [StoredReason]) -> [String] { reasons.map(sentence) }

    /// One reason in words, e.g. "Weight +2.4 % above baseline (yellow from +1.1 %)".
    public func sentence(_ r: StoredReason) -> String {
        let level = levelWord(r.level)
        guard let v = r.value else { return label(r.code) }
        switch r.code {
        case "weight_gain_pct":
            let p = pair(v, r.threshold, 1, .atLeast)
            return s("Weight \(p.signedValue) % above baseline", "Gewicht \(p.signedValue) % über dem Ausgangsgewicht")
                + from(level, p.signedThreshold.map { "\($0) %" })
        case "weight_gain_24h":
            let p = pair(v, r.threshold, 1, .atLeast)
            return s("Weight \(p.signedValue) kg since the previous morning", "Gewicht \(p.signedValue) kg seit dem Vortag morgens")
                + from(level, p.signedThreshold.map { "\($0) kg" })
        case "fluid_excess":
            let p = pair(v, r.threshold, 1, .atLeast)
            return s("Fluid intake \(p.value) % over the limit", "Trinkmenge \(p.value) % über dem Limit")
                + from(level, p.threshold.map { "\($0) %" })
        case "fluid_over_limit_2d":
            let p = pair(v, r.threshold, 0, .above)
            let limit = p.threshold.map { s(", limit \($0) \(mL)", ", Limit \($0) \(mL)") } ?? ""
            return s("Fluid \(p.value) \(mL) today, over the limit 2 days running\(limit) (\(level))",
                     "Trinkmenge \(p.value) \(mL) heute, 2 Tage in Folge über dem Limit\(limit) (\(level))")
        case "symptom_score", "nausea_severe", "headache_severe", "confusion":
            // Whole-number scores counted from a threshold: the score, then the rule.
            let p = pair(v, r.threshold, 0, .atLeast)
            let what: String = switch r.code {
            case "symptom_score": s("Symptom score \(p.value)", "Symptomscore \(p.value)")
            case "nausea_severe": s("Nausea \(p.value) of 3", "Übelkeit \(p.value) von 3")
            case "headache_severe": s("Headache \(p.value) of 3", "Kopfschmerzen \(p.value) von 3")
            default: s("New confusion, \(p.value) of 3", "Neue Verwirrtheit, \(p.value) von 3")
            }
            return what + from(level, p.threshold)
        case "reaction_time":
            let p = pair(v, r.threshold, 1, .atLeast)
            let twice = r.level == .red ? s(" in two tests", " in zwei Tests") : ""
            return s("Reaction time \(p.value) % slower than baseline", "Reaktionszeit \(p.value) % langsamer als der Ausgangswert")
                + from(level, p.threshold.map { "\($0) %\(twice)" })
        case "sodium_low":
            // Stored as the deficit from normal; read as the sodium and the sodium it fires at.
            let p = pair(facts.normalSodium - v, r.threshold.map { facts.normalSodium - $0 }, 0, .atMost)
            return s("Sodium \(p.value) \(mmol)", "Natrium \(p.value) \(mmol)") + at(level, p.threshold)
        case "sodium_profound":
            let p = pair(v, r.threshold, 0, .atMost)
            return s("Sodium \(p.value) \(mmol), profoundly low", "Natrium \(p.value) \(mmol), stark erniedrigt") + at(level, p.threshold)
        case "sodium_symptomatic":
            let p = pair(v, r.threshold, 0, .below)
            let rule = p.threshold.map { s(" (\(level) below \($0) with symptoms)", " (\(level) unter \($0) mit Symptomen)") } ?? " (\(level))"
            return s("Sodium \(p.value) \(mmol) with nausea, headache or confusion",
                     "Natrium \(p.value) \(mmol) mit Übelkeit, Kopfschmerzen oder Verwirrtheit") + rule
        case "sodium_fall":
            let p = pair(v, r.threshold, 0, .atLeast)
            return s("Sodium fell by \(p.value) \(mmol)", "Natrium um \(p.value) \(mmol) gefallen")
                + (p.threshold.map { s(" (\(level) from a fall of \($0))", " (\(level) ab einem Abfall um \($0))") } ?? " (\(level))")
        case "sodium_fall_acute":
            let p = pair(v, r.threshold, 0, .atLeast)
            let below = format.number(ClinicalPair.threshold(facts.acuteFallSodiumBelow, 0, .below), decimals: 0)
            return s("Sodium fell by \(p.value) \(mmol)", "Natrium um \(p.value) \(mmol) gefallen")
                + (p.threshold.map { s(" (\(level) from a fall of \($0) to below \(below))", " (\(level) ab einem Abfall um \($0) auf unter \(below))") }
                    ?? " (\(level))")
        case "vomiting":
            let p = pair(v, r.threshold, 0, .atLeast)
            let times = v == 1 ? s("once", "einmal") : s("\(p.value) times", "\(p.value)-mal")
            // Fewer episodes than the rule alone needs: it fired with a low lab sodium that day.
            let withSodium = r.threshold.map { Int($0) < facts.vomitingEpisodesAtLeast } ?? false
            let sodium = format.number(ClinicalPair.threshold(facts.vomitingSodiumBelow, 0, .below), decimals: 0)
            let rule = p.threshold.map { withSodium
                ? s(" (\(level) from \($0) with a lab sodium below \(sodium))", " (\(level) ab \($0) bei Labornatrium unter \(sodium))")
                : s(" (\(level) from \($0))", " (\(level) ab \($0))") } ?? " (\(level))"
            return s("Vomited \(times) today", "Heute \(times) erbrochen") + rule
        case "emergency_symptom":
            let n = Int(v.rounded())
            return (n > 1 ? s("\(n) emergency symptoms reported", "\(n) Notfallsymptome gemeldet")
                          : s("Emergency symptom reported", "Notfallsymptom gemeldet")) + " (\(level))"
        case "multiple_yellow":
            let p = pair(v, r.threshold, 0, .atLeast)
            return s("\(p.value) yellow signs", "\(p.value) gelbe Zeichen") + from(level, p.threshold)
        case "possible_di":
            // Either the weight change against baseline (negative percent) or the urine SG.
            if let t = r.threshold, t < 0 || v < 0.5 {
                let p = pair(v, t, 1, .atMost)
                return s("Weight \(p.signedValue) % against baseline, possible diabetes insipidus",
                         "Gewicht \(p.signedValue) % gegenüber dem Ausgangsgewicht, möglicher Diabetes insipidus")
                    + at(level, p.signedThreshold.map { "\($0) %" })
            }
            let p = pair(v, r.threshold, 3, .atMost)
            return s("Urine SG \(p.value) with intake at the limit, possible diabetes insipidus",
                     "Urin-SG \(p.value) bei Trinkmenge am Limit, möglicher Diabetes insipidus") + at(level, p.threshold)
        case "urine_sg_support":
            // A supporting sign, not a level of its own (docs/clinical-rules.md §5).
            let p = pair(v, r.threshold, 3, .atLeast)
            return s("Urine SG \(p.value)", "Urin-SG \(p.value)")
                + (p.threshold.map { s(" (supports from \($0))", " (unterstützt ab \($0))") } ?? "")
        default:
            let p = pair(v, r.threshold, 2, .atLeast)
            return "\(label(r.code)) \(p.value)" + (p.threshold.map { s(" (\(level), threshold \($0))", " (\(level), Schwelle \($0))") } ?? " (\(level))")
        }
    }

    /// The short label of a code without its numbers ("low lab sodium"), for subject lines,
    /// a missing-data reason, or a code this build does not know (shown as itself).
    public func label(_ code: String) -> String {
        let words = Vocabulary(language: language)
        let text = words.reason(code, noDataDays: facts.noDataDays)
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// "red", "yellow" in English prose; the German nouns "Rot", "Gelb" (`Vocabulary.level`).
    public func levelWord(_ level: Level) -> String { Self.levelWord(level, language) }

    /// The level word of `language` in prose (the chart legends name their lines with it too).
    public static func levelWord(_ level: Level, _ language: Language) -> String {
        let word = Vocabulary(language: language).level(level)
        return language == .de ? word : word.lowercased()
    }

    // MARK: building blocks

    /// A value and its threshold as shown, at the measurement's precision.
    private struct Shown {
        var value: String
        var threshold: String?
        var signedValue: String
        var signedThreshold: String?
    }

    private func pair(_ v: Double, _ t: Double?, _ decimals: Int, _ comparison: ClinicalPair.Comparison) -> Shown {
        guard let t else {
            let shown = ClinicalPair.rounded(v, decimals)
            return Shown(value: format.number(shown, decimals: decimals), threshold: nil,
                         signedValue: format.signed(shown, decimals: decimals), signedThreshold: nil)
        }
        let p = ClinicalPair(value: v, threshold: t, decimals: decimals, comparison: comparison)
        return Shown(value: format.number(p.value, decimals: p.decimals), threshold: format.number(p.threshold, decimals: p.decimals),
                     signedValue: format.signed(p.value, decimals: p.decimals),
                     signedThreshold: format.signed(p.threshold, decimals: p.decimals))
    }

    /// " (yellow from 10)"; " (yellow)" without a threshold.
    private func from(_ level: String, _ threshold: String?) -> String {
        threshold.map { s(" (\(level) from \($0))", " (\(level) ab \($0))") } ?? " (\(level))"
    }

    /// " (red at ≤ 129)".
    private func at(_ level: String, _ threshold: String?) -> String {
        threshold.map { s(" (\(level) at ≤ \($0))", " (\(level) bei ≤ \($0))") } ?? " (\(level))"
    }
}
