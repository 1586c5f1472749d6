import HyponaTrackCore

/// The study's words people read on pages and in reports, in English and German: levels, risk
/// classes, reason codes, alert kinds and states. The console, the PDF report and the alert
/// e-mail (its short phrases) all say them this way. A word that names a clinical fact of the
/// rules (how many silent days make `no_data_2d`) takes it from the rules in force, passed in.
public struct Vocabulary: Bilingual, Sendable {
    public let language: Language

    public func level(_ level: Level) -> String {
        switch level {
        case .green: return s("Green", "Grün")
        case .yellow: return s("Yellow", "Gelb")
        case .red: return s("Red", "Rot")
        case .info: return s("Info", "Info")
        }
    }

    /// A date in text a person reads: `2026-12-06` in English, `6.12.2026` in German (data exports,
    /// attributes and REDCap stay ISO).
    public func date(_ d: LocalDate) -> String {
        s(d.description, "\(d.day).\(d.month).\(d.year)")
    }

    /// A date as a patient reads it: `7 December 2026` in English (no ISO digits to decode, and
    /// no day/month order to guess), `7.12.2026` in German.
    public func writtenDate(_ d: LocalDate) -> String {
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                      "November", "December"]
        return s("\(d.day) \(months[d.month - 1]) \(d.year)", date(d))
    }

    /// "Monday", "Montag" (0 = Monday, as `ClinicHours.weekday`).
    public func weekday(_ index: Int) -> String {
        let en = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        let de = ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"]
        return s(en[index], de[index])
    }

    /// What a day that is not evaluated says instead of reasons (docs/clinical-rules.md §3).
    public var notEvaluated: String { s("not evaluated: no value a rule reads", "nicht bewertet: kein Wert, den eine Regel liest") }

    /// An alert acknowledged before a worsening and not since (docs/product.md, "Alerts").
    public func needsAcknowledgingAgain(worsenedAt time: String) -> String {
        s("needs acknowledging again: worsened \(time)", "erneut zu bestätigen: verschlechtert \(time)")
    }

    /// An acknowledgement that a later worsening superseded, kept in the history.
    public func acknowledgedBeforeWorsening(_ earlier: Level, at time: String, by actor: String) -> String {
        s("before the worsening: \(level(earlier)) acknowledged \(time) by \(actor)",
          "vor der Verschlechterung: \(level(earlier)) bestätigt \(time) von \(actor)")
    }

    /// A pushed reminder's kind (`check`, `task`, `missed`, `catch_up`, `nudge`: the push data's
    /// `kind`); an unknown one is shown as itself.
    public func reminderKind(_ kind: String) -> String {
        switch kind {
        case Reminder.Kind.check.rawValue: return s("check", "Messung")
        case Reminder.Kind.task.rawValue: return s("task", "Aufgabe")
        case Reminder.Kind.missed.rawValue: return s("check still open", "Messung noch offen")
        case Reminder.Kind.catchUp.rawValue: return s("catch-up", "Nachholen")
        case PushReminder.nudgeKind: return s("nothing received for a while", "länger nichts eingegangen")
        default: return kind
        }
    }

    /// A reminder's slot (`morning`, `evening`); an unknown one is shown as itself.
    public func slot(_ slot: String) -> String {
        switch ReminderRules.Deadline(rawValue: slot) {
        case .morning: return s("morning", "morgens")
        case .evening: return s("evening", "abends")
        case nil: return slot
        }
    }

    public func riskClass(_ c: RiskClass) -> String {
        switch c {
        case .low: return s("low", "niedrig")
        case .medium: return s("medium", "mittel")
        case .high: return s("high", "hoch")
        }
    }

    /// `no_data_2d` in words: "no data for 3 days" ("No …" to start a label), naming the silent
    /// days the rules in force count (`missingData.noData.days`, docs/clinical-rules.md §8); the
    /// code keeps its name.
    public func noData(days count: Int, capitalised: Bool = false) -> String {
        s("\(capitalised ? "No" : "no") data for \(days(count))", "\(days(count)) ohne Daten")
    }

    /// "1 day", "3 days".
    public func days(_ count: Int) -> String { count == 1 ? s("1 day", "1 Tag") : s("\(count) days", "\(count) Tage") }

    /// A reason code (docs/clinical-rules.md §3–§5; §8 for missing-data alerts) as a short label
    /// shown beside the code; an unknown code is shown as itself. `noDataDays`: the rules'
    /// `missingData.noData.days`, which the label of `no_data_2d` names.
    public func reason(_ code: String, noDataDays: Int) -> String {
        switch code {
        // §3 thresholds
        case "weight_gain_pct": return s("weight gain", "Gewichtszunahme")
        case "weight_gain_24h": return s("weight gain in 24 h", "Gewichtszunahme in 24 h")
        case "fluid_excess": return s("fluid over limit", "Trinkmenge über dem Limit")
        case "symptom_score": return s("symptom score", "Symptomscore")
        case "reaction_time": return s("slow reaction time", "verlangsamte Reaktionszeit")
        case "sodium_low": return s("low lab sodium", "niedriges Labornatrium")
        case "urine_sg_support": return s("concentrated urine", "konzentrierter Urin")
        // §4 single-item triggers
        case "confusion": return s("confusion", "Verwirrtheit")
        case "vomiting": return s("vomiting", "Erbrechen")
        case "emergency_symptom": return s("emergency symptom", "Notfallsymptom")
        case "sodium_profound": return s("profoundly low sodium", "stark erniedrigtes Natrium")
        case "sodium_symptomatic": return s("low sodium with symptoms", "niedriges Natrium mit Symptomen")
        case "sodium_fall_acute": return s("acute sodium fall", "akuter Natriumabfall")
        case "nausea_severe": return s("severe nausea", "starke Übelkeit")
        case "headache_severe": return s("severe headache", "starke Kopfschmerzen")
        case "sodium_fall": return s("sodium fall", "Natriumabfall")
        case "fluid_over_limit_2d": return s("fluid over limit 2 days", "Trinkmenge 2 Tage über dem Limit")
        case "possible_di": return s("possible diabetes insipidus", "möglicher Diabetes insipidus")
        // §5 combining
        case "multiple_yellow": return s("several warning signs", "mehrere Warnzeichen")
        // §8 missing data
        case "missing_checkin": return s("missed check-ins", "verpasste Check-ins")
        case "no_data_2d": return noData(days: noDataDays)
        default: return code
        }
    }

    /// An alert's kind; `noDataDays` as for `reason`.
    public func alertKind(_ kind: AlertKind, noDataDays: Int) -> String {
        switch kind {
        case .evaluation: return s("evaluation", "Auswertung")
        case .missingCheckin: return s("missing check-in", "fehlender Check-in")
        case .noData2d: return noData(days: noDataDays)
        }
    }

    /// A staff role as a page in the language names it (the code stays `admin`, `nurse`, `viewer`).
    public func role(_ role: Role) -> String {
        switch role {
        case .admin: return s("admin", "Administration")
        case .nurse: return s("nurse", "Pflege")
        case .viewer: return s("viewer", "nur lesend")
        }
    }

    public func alertState(_ state: AlertState) -> String {
        switch state {
        case .open: return s("open", "offen")
        case .acknowledged: return s("acknowledged", "bestätigt")
        case .resolved: return s("resolved", "erledigt")
        }
    }

    /// How a contact attempt ended, in words (the code stays `no_answer`, …).
    public func contactOutcome(_ outcome: ContactOutcome) -> String {
        switch outcome {
        case .reached: return s("reached", "erreicht")
        case .noAnswer: return s("no answer", "nicht erreicht")
        case .voicemail: return s("voicemail", "Mailbox")
        case .patientCalled: return s("patient called", "Patient hat angerufen")
        case .other: return s("other", "Sonstiges")
        }
    }

    /// An outcome's kind in words (the code stays `ed_visit`, …).
    public func outcomeKind(_ kind: OutcomeKind) -> String {
        switch kind {
        case .hyponatremia: return s("hyponatremia", "Hyponatriämie")
        case .edVisit: return s("emergency department visit", "Vorstellung in der Notaufnahme")
        case .readmission: return s("readmission", "Wiederaufnahme")
        case .other: return s("other", "Sonstiges")
        }
    }

    /// Who recorded an outcome, in words.
    public func outcomeSource(_ source: OutcomeSource, status: OutcomeStatus) -> String {
        let from = source == .lab ? s("from a lab value", "aus einem Laborwert") : s("recorded by staff", "vom Team erfasst")
        return status == .withdrawn ? from + s(", withdrawn (lab value deleted)", ", zurückgezogen (Laborwert gelöscht)") : from
    }

    /// A Kat A histology code of the rules in words (an unknown code as it is).
    public func histology(_ code: String) -> String {
        switch code {
        case "craniopharyngioma": return s("craniopharyngioma", "Kraniopharyngeom")
        case "cushing": return s("Cushing's disease", "Morbus Cushing")
        case "rathke_cleft_cyst": return s("Rathke's cleft cyst", "Rathke-Zyste")
        case "macroadenoma": return s("macroadenoma", "Makroadenom")
        case "microadenoma": return s("microadenoma", "Mikroadenom")
        case "other": return s("other", "andere")
        default: return code
        }
    }

    /// A Kat A risk medication code in words.
    public func medication(_ code: String) -> String {
        switch code {
        case "thiazide": return s("thiazide", "Thiazid")
        case "carbamazepine": return s("carbamazepine", "Carbamazepin")
        case "oxcarbazepine": return s("oxcarbazepine", "Oxcarbazepin")
        case "antidepressant_recent": return s("antidepressant started < 13 weeks ago", "Antidepressivum seit < 13 Wochen")
        case "antidepressant": return s("antidepressant", "Antidepressivum")
        case "opioid": return s("opioid", "Opioid")
        case "antipsychotic": return s("antipsychotic", "Antipsychotikum")
        case "levetiracetam": return s("levetiracetam", "Levetiracetam")
        case "valproate": return s("valproate", "Valproat")
        case "spironolactone": return s("spironolactone", "Spironolacton")
        default: return code
        }
    }

    /// A Kat C postoperative-nausea code in words.
    public func postopNausea(_ code: String) -> String {
        switch code {
        case "none": return s("none", "keine")
        case "antiemetic": return s("needed an antiemetic", "Antiemetikum nötig")
        case "vomiting": return s("vomiting", "Erbrechen")
        default: return code
        }
    }

    public init(language: Language) {
        self.language = language
    }
}
