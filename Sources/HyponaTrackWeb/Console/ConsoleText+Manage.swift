import HTJSON
import HyponaTrackCore
import HyponaTrackDomain

/// The words of the patient-management pages (enrol, profile, code, withdraw, correct a day,
/// delete a lab value), English and German side by side, and how a refusal at one of their
/// fields is said.
extension ConsoleText {
    var manage: String { s("Manage patient", "Patient verwalten") }
    var enrol: String { s("Enrol a patient", "Patient aufnehmen") }
    var editProfile: String { s("Edit profile", "Profil bearbeiten") }
    var saveProfile: String { s("Save profile", "Profil speichern") }
    var newCode: String { s("New activation code", "Neuer Aktivierungscode") }
    var issueCode: String { s("Issue a new code", "Neuen Code ausstellen") }
    var withdraw: String { s("Withdraw from the study", "Aus der Studie nehmen") }
    var correctDay: String { s("Correct a day's value", "Wert eines Tages korrigieren") }
    var deleteLab: String { s("Delete a wrong lab value", "Falschen Laborwert löschen") }
    var reasonLabel: String { s("Reason (kept in the audit trail)", "Grund (wird im Audit-Protokoll festgehalten)") }
    var required: String { s("required", "Pflicht") }
    var notEntered: String { s("not entered yet", "noch nicht erfasst") }
    var yes: String { s("yes", "ja") }
    var no: String { s("no", "nein") }
    var fixErrors: String {
        s("Nothing was saved. Please correct the fields marked below.", "Es wurde nichts gespeichert. Bitte die unten markierten Felder korrigieren.")
    }

    /// The label of a profile field (the form's name for it is the API's JSON path).
    func profileLabel(_ field: String) -> String {
        switch field {
        case "studyId": return studyId
        case "site": return s("Site (the patient's centre)", "Standort (das Zentrum des Patienten)")
        case "surgeryDate": return s("Surgery date", "OP-Datum")
        case "timeZone": return s("Time zone (IANA, e.g. Europe/Berlin)", "Zeitzone (IANA, z. B. Europe/Berlin)")
        case "age": return s("Age (years)", "Alter (Jahre)")
        case "sex": return s("Sex", "Geschlecht")
        case "bmi": return s("BMI (kg/m²)", "BMI (kg/m²)")
        case "baselineWeightKg": return s("Baseline weight (kg)", "Ausgangsgewicht (kg)")
        case "histology": return s("Histology", "Histologie")
        case "stalkDeviation": return s("Pituitary stalk deviation", "Hypophysenstiel-Deviation")
        case "riskMedications": return s("Risk medications", "Risikomedikamente")
        case "katB.podSodium": return s("Sodium on the day after surgery (mmol/L)", "Natrium am Tag nach der OP (mmol/l)")
        case "katB.preopSodium": return s("Sodium before surgery (mmol/L)", "Natrium vor der OP (mmol/l)")
        case "katB.operationMinutes": return s("Operation time (minutes)", "OP-Dauer (Minuten)")
        case "katB.csfLeak": return s("CSF leak", "Liquorleck")
        case "katC.postopNausea": return s("Postoperative nausea", "Postoperative Übelkeit")
        case "katC.diabetesInsipidus": return s("Diabetes insipidus after surgery", "Diabetes insipidus nach der OP")
        case "katC.desmopressin": return s("Desmopressin after surgery", "Desmopressin nach der OP")
        case "katC.newCortisolDeficiency": return s("New cortisol deficiency", "Neuer Cortisolmangel")
        case "fluidLimitMl": return s("Fluid limit (mL/day)", "Trinkmengen-Grenze (ml/Tag)")
        case "diabetesInsipidusActive": return s("Diabetes insipidus active now", "Diabetes insipidus derzeit aktiv")
        case "baselineReactionTimeMs": return s("Baseline reaction time (ms)", "Ausgangs-Reaktionszeit (ms)")
        case "desmopressinPrescribed": return s("Desmopressin prescribed", "Desmopressin verordnet")
        case "simplifiedMode": return s("Simplified mode (fewer tasks)", "Vereinfachter Modus (weniger Aufgaben)")
        case "webOnly": return s("Web check-in only (no app)", "Nur Web-Check-in (keine App)")
        case "loanDevice": return s("Loan device", "Leihgerät")
        case "baselineIsPreOp": return s("Baseline weight taken before surgery", "Ausgangsgewicht vor der OP gemessen")
        case "consentVersion": return s("Consent form version", "Version der Einwilligung")
        case "consentDate": return s("Consent date", "Datum der Einwilligung")
        default: return field
        }
    }

    /// A day's value a nurse may correct, by its API name.
    func dayField(_ field: String) -> String {
        switch field {
        case "weightMorningKg": return s("Weight in the morning (kg)", "Gewicht morgens (kg)")
        case "weightEveningKg": return s("Weight in the evening (kg)", "Gewicht abends (kg)")
        case "fluidIntakeMl": return s("Fluid intake (mL)", "Trinkmenge (ml)")
        case "urineSG": return s("Urine specific gravity", "Urin-spezifisches Gewicht")
        case "vomitingEpisodes": return s("Vomiting episodes", "Erbrechen (Anzahl)")
        default: return field
        }
    }

    func sex(_ code: String) -> String { code == "female" ? s("female", "weiblich") : s("male", "männlich") }

    /// What a refused field of these forms says, in the page's language: worded from the
    /// decoder's problem where it has one, else from what the field takes.
    func refusal(_ field: String, _ error: FieldError) -> String {
        let messages = FieldMessages(language)
        switch (Self.kind(field), error.problem) {
        case (.date, .required?): return messages.text(.required, for: .text)
        case (.date, .dateInFuture?): return s("This date is in the future.", "Dieses Datum liegt in der Zukunft.")
        case (.date, .dateBefore(let first)?):
            return s("This date is before \(isoDate(first)).", "Dieses Datum liegt vor dem \(isoDate(first)).")
        case (.date, .dateOutside(let first, let last)?):
            return s("This day is outside the monitoring period, \(isoDate(first)) to \(isoDate(last)). Nothing was saved.",
                     "Dieser Tag liegt außerhalb des Beobachtungszeitraums, \(isoDate(first)) bis \(isoDate(last)). Es wurde nichts gespeichert.")
        case (.date, _): return hint(field) ?? s("Please enter a date such as 2026-12-06.", "Bitte ein Datum wie 2026-12-06 eingeben.")
        case (let kind?, let problem?): return messages.text(problem, for: kind.messages)
        case (_, nil): return hint(field) ?? messages.text(nil, for: nil)
        case (nil, let problem): return messages.text(problem, for: .text)
        }
    }

    /// What a field takes, said when the decoder gave only an (English) message.
    private func hint(_ field: String) -> String? {
        switch field {
        case "studyId": return s("Letters, digits, _ and - only, at most 64 characters.", "Nur Buchstaben, Ziffern, _ und -, höchstens 64 Zeichen.")
        case "timeZone": return s("Please enter an IANA time zone such as Europe/Berlin.", "Bitte eine IANA-Zeitzone wie Europe/Berlin eingeben.")
        case "consentVersion": return s("Letters, digits, ., _ and - only, at most 32 characters.", "Nur Buchstaben, Ziffern, ., _ und -, höchstens 32 Zeichen.")
        case "consentDate":
            return s("The consent date must not be in the future nor more than \(ValueRanges.consentDateMaxDaysAfterSurgery) days after the surgery date.",
                     "Das Datum der Einwilligung darf nicht in der Zukunft und nicht mehr als \(ValueRanges.consentDateMaxDaysAfterSurgery) Tage nach dem OP-Datum liegen.")
        default: return nil
        }
    }

    private func isoDate(_ iso: String) -> String { LocalDate(iso).map(date) ?? iso }

    /// The kinds of field these forms have.
    enum FieldKind {
        case date, number(Int), option, text
        var messages: FieldMessages.Kind {
            switch self {
            case .date, .text: return .text
            case .number(let decimals): return .number(decimals: decimals)
            case .option: return .option
            }
        }
    }

    static func kind(_ field: String) -> FieldKind? {
        switch field {
        case "surgeryDate", "consentDate", "date": return .date
        case "urineSG": return .number(3)
        case "age", "bmi", "baselineWeightKg", "katB.podSodium", "katB.preopSodium", "katB.operationMinutes", "fluidLimitMl",
             "baselineReactionTimeMs", "weightMorningKg", "weightEveningKg", "fluidIntakeMl", "vomitingEpisodes", "value": return .number(0)
        case "sex", "histology", "riskMedications", "katB.csfLeak", "katC.postopNausea", "field", "labId": return .option
        case "reason", "studyId", "timeZone", "consentVersion": return .text
        default: return nil
        }
    }
}
