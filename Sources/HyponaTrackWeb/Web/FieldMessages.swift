import Foundation
import HTJSON
import HyponaTrackCore
import HyponaTrackDomain

/// What a page (the web check-in, the console's forms) says next to a refused field, in the
/// page's language. The refusal comes from the API's decoder (its ranges and codes are the only
/// ones), whose English `message` is for the API; the page words the refusal's `problem` for the
/// kind of field it has, so a German page never shows an English message. A conflict (the
/// record's state refuses the action: `DomainError.conflict`) is worded from its problem the same
/// way, and so is a record the page's address names that does not exist (`DomainError.notFound`).
struct FieldMessages: Bilingual {
    /// The kinds of field the check forms have.
    enum Kind: Equatable {
        /// A typed number; its range is shown with `decimals` places (urine SG: 1.000–1.040).
        case number(decimals: Int)
        /// Radio buttons for the integers of `range`.
        case choice(ClosedRange<Int>)
        /// The emergency signs' checkboxes.
        case emergencySigns
        /// The form's day (a refusal of its date: outside the monitoring window, in the future).
        case day
        /// A free text (a note).
        case text
        /// A date and time (a lab value's).
        case time
        /// A choice from a drop-down list (a contact's outcome, the alert it was about).
        case option
    }

    let language: Language

    init(_ language: Language) { self.language = language }

    /// The message for `problem` at a field of `kind` (nil: one the form does not show, or a
    /// problem of no known kind: a general message, still in the page's language).
    func text(_ problem: FieldError.Problem?, for kind: Kind?) -> String {
        switch (kind, problem) {
        case (.number?, .required?), (.text?, .required?):
            return s("Please fill in this field.", "Bitte füllen Sie dieses Feld aus.")
        case (.text?, .length(_, let upper)?):
            return s("Please write at most \(upper) characters.", "Bitte schreiben Sie höchstens \(upper) Zeichen.")
        case (.text?, .forbiddenCharacter(let codePoint)?):
            let name = FreeText.name(codePoint)
            return s("This text contains an invisible control or text-direction character (\(name)); please remove it. Line breaks and tabs are fine. Nothing was saved.",
                     "Dieser Text enthält ein unsichtbares Steuer- oder Textrichtungszeichen (\(name)); bitte entfernen Sie es. Zeilenumbrüche und Tabulatoren sind erlaubt. Es wurde nichts gespeichert.")
        case (.number?, .notANumber?), (.number?, .notAnInteger?):
            return s("Please enter a number (digits, with a point or a comma for decimals).",
                     "Bitte geben Sie eine Zahl ein (Ziffern, Nachkommastellen mit Komma oder Punkt).")
        case (.number(let decimals)?, .outOfRange(let lower, let upper)?):
            return s("Please enter a value from \(number(lower, decimals)) to \(number(upper, decimals)).",
                     "Bitte geben Sie einen Wert von \(number(lower, decimals)) bis \(number(upper, decimals)) ein.")
        case (.option?, .required?):
            return s("Please choose one.", "Bitte wählen Sie eine Möglichkeit.")
        case (.option?, _):
            return s("Please choose one of the listed options.", "Bitte wählen Sie eine der aufgeführten Möglichkeiten.")
        case (.choice?, .required?):
            return s("Please choose one answer.", "Bitte wählen Sie eine Antwort.")
        case (.choice(let range)?, _):
            return s("Please choose one of the answers \(range.lowerBound) to \(range.upperBound).",
                     "Bitte wählen Sie eine der Antworten \(range.lowerBound) bis \(range.upperBound).")
        case (.emergencySigns?, .notOneOf?):
            return s("This sign is not on the list. Please tick only the signs shown here.",
                     "Dieses Zeichen steht nicht in der Liste. Bitte kreuzen Sie nur die hier genannten Zeichen an.")
        case (.day?, .dateOutside(let first, let last)?):
            return s("Checks can be saved only in your monitoring period, \(date(first)) to \(date(last)). Nothing was saved.",
                     "Checks können nur in Ihrem Beobachtungszeitraum gespeichert werden, \(date(first)) bis \(date(last)). Es wurde nichts gespeichert.")
        case (.time?, .dateInFuture?):
            return s("This time is in the future.", "Dieser Zeitpunkt liegt in der Zukunft.")
        case (.time?, .dateOutside(_, let last)?):
            return s("This time is after the monitoring period, which ended on \(date(last)). Nothing was saved.",
                     "Dieser Zeitpunkt liegt nach dem Beobachtungszeitraum, der am \(date(last)) endete. Es wurde nichts gespeichert.")
        case (.time?, .dateBefore(let first)?):
            return s("This time is before the surgery date, \(date(first)).", "Dieser Zeitpunkt liegt vor dem Operationsdatum, \(date(first)).")
        case (.day?, .dateInFuture?):
            return s("This day has not begun yet. Nothing was saved.", "Dieser Tag hat noch nicht begonnen. Es wurde nichts gespeichert.")
        default:
            return s("This value cannot be saved. Please check it.", "Dieser Wert kann nicht gespeichert werden. Bitte prüfen Sie ihn.")
        }
    }

    /// The message for `error` at a field of `kind`: worded here when the decoder said what the
    /// problem is, else the error's own message (one a page wrote in its language itself).
    func text(_ error: FieldError, for kind: Kind?) -> String {
        error.problem == nil ? error.message : text(error.problem, for: kind)
    }

    /// The message for a conflict's `problem`; nil (a conflict no page meets) gets a general one.
    func text(_ problem: DomainError.ConflictProblem?) -> String {
        switch problem {
        case .alertAlready(let id, let state)?:
            let state = Vocabulary(language: language).alertState(state)
            return s("Alert \(id) is already \(state); nothing was changed.", "Alarm \(id) ist bereits \(state); es wurde nichts geändert.")
        case .proposalAlready(let id, let status)?:
            let status = proposalStatus(status)
            return s("Proposal \(id) is already \(status); nothing was changed.", "Vorschlag \(id) ist bereits \(status); es wurde nichts geändert.")
        case .proposalOutdated?:
            return s("The stored value has changed since the import. Reject the proposal, or tick the box to replace the stored value anyway.",
                     "Der gespeicherte Wert hat sich seit dem Import geändert. Lehnen Sie den Vorschlag ab oder kreuzen Sie an, dass der gespeicherte Wert trotzdem ersetzt wird.")
        case .proposalWithoutValue?:
            return s("This proposal has no value to apply; please reject it.",
                     "Dieser Vorschlag hat keinen Wert, der übernommen werden kann; bitte lehnen Sie ihn ab.")
        case .patientWithdrawn?:
            return s("The patient has withdrawn from the study; nothing can be changed for them any more.",
                     "Der Patient ist aus der Studie ausgeschieden; für ihn kann nichts mehr geändert werden.")
        case .fixedOnceDataExists(let field)?:
            let what = field == "timeZone" ? s("time zone", "Zeitzone") : s("surgery date", "Operationsdatum")
            return s("The \(what) cannot change once the patient has data: their days were dated with it. Record the change in a note; nothing was changed.",
                     "\(language == .de && field == "timeZone" ? "Die" : "Das") \(what) kann nicht mehr geändert werden, weil schon Daten gespeichert sind: ihre Tage wurden damit datiert. Bitte die Änderung in einer Notiz festhalten; es wurde nichts geändert.")
        case .accessEnded(let lastDay)?:
            return s("The patient's app access ended on \(date(lastDay.description)); a new code could not be used, so none was issued.",
                     "Der App-Zugang des Patienten endete am \(date(lastDay.description)); ein neuer Code wäre nicht nutzbar, daher wurde keiner ausgestellt.")
        case .alreadyEnrolled(let studyId)?:
            return s("The study ID \(studyId) is already in use (study IDs are unique across all sites); nothing was saved.",
                     "Die Studien-ID \(studyId) ist bereits vergeben (Studien-IDs gelten für alle Zentren); es wurde nichts gespeichert.")
        case nil:
            return s("This does not fit the record's current state; nothing was changed. Reload the page and check it.",
                     "Das passt nicht zum aktuellen Stand der Daten; es wurde nichts geändert. Bitte laden Sie die Seite neu und prüfen Sie sie.")
        }
    }

    /// The message for a record that does not exist (`DomainError.notFound`'s `missing`).
    func text(_ missing: DomainError.Missing) -> String {
        switch missing {
        case .patient(let studyId):
            return s("There is no patient with study ID \(studyId).", "Es gibt keinen Patienten mit der Studien-ID \(studyId).")
        case .alert(let id):
            return s("There is no alert \(id); nothing was changed.", "Einen Alarm \(id) gibt es nicht; es wurde nichts geändert.")
        case .alertOfPatient(let id, let studyId):
            return s("Patient \(studyId) has no alert \(id); nothing was saved.",
                     "Patient \(studyId) hat keinen Alarm \(id); es wurde nichts gespeichert.")
        case .proposal(let id):
            return s("There is no proposal \(id); nothing was changed.", "Einen Vorschlag \(id) gibt es nicht; es wurde nichts geändert.")
        }
    }

    private func proposalStatus(_ status: ProposalStatus) -> String {
        switch status {
        case .pending: return s("pending", "offen")
        case .confirmed: return s("confirmed", "bestätigt")
        case .rejected: return s("rejected", "abgelehnt")
        case .superseded: return s("superseded by a newer import", "durch einen neueren Import ersetzt")
        case .withdrawn: return s("withdrawn (entered in error)", "zurückgezogen (Fehleintrag)")
        }
    }

    /// A day's list (`DomainError.limitReached`'s field: `labSodium`, `symptoms`, …) is full
    /// (`limits.itemsPerList`).
    func limitReached(_ list: String, _ limit: Int) -> String {
        s("This day already holds \(limit) \(listName(list)); nothing was saved.",
          "Dieser Tag hat schon \(limit) \(listName(list)); es wurde nichts gespeichert.")
    }

    /// What a day's list holds, in words (`DailyEntry.listCounts`); another list by its name.
    private func listName(_ list: String) -> String {
        switch list {
        case "symptoms": return s("symptom entries", "Symptomeinträge")
        case "reactionTests": return s("reaction tests", "Reaktionstests")
        case "tappingTests": return s("tapping tests", "Tipptests")
        case "desmopressinDoses": return s("desmopressin doses", "Desmopressin-Gaben")
        case "labSodium": return s("lab values", "Laborwerte")
        default: return s("\(list) entries", "Einträge (\(list))")
        }
    }

    /// A right activation code for a patient whose access ended on `lastDay`
    /// (`tokens.patientDaysAfterMonitoring` after the monitoring period).
    func accessEnded(_ lastDay: LocalDate) -> String {
        s("Your monitoring period in the study is over, so the app can no longer be activated (access ended on \(date(lastDay.description))).",
          "Ihr Beobachtungszeitraum in der Studie ist vorbei, die App kann daher nicht mehr aktiviert werden (Zugang endete am \(date(lastDay.description))).")
    }

    /// `v` with `decimals` places, a decimal comma in German.
    func number(_ v: Double, _ decimals: Int) -> String {
        let text = String(format: "%.\(decimals)f", v)
        return language == .de ? text.replacingOccurrences(of: ".", with: ",") : text
    }

    /// `YYYY-MM-DD` as German pages write a date (`DD.MM.YYYY`); English pages keep it.
    func date(_ iso: String) -> String {
        let parts = iso.split(separator: "-")
        guard language == .de, parts.count == 3 else { return iso }
        return "\(parts[2]).\(parts[1]).\(parts[0])"
    }
}
