import HyponaTrackCore
import HyponaTrackDomain

/// The web check-in's fixed words in English and German (the symptom wording comes from the
/// rules: `InstructionTexts.webApp`).
struct AppText: Sendable, Bilingual {
    let language: Language

    init(_ language: Language) { self.language = language }


    var title: String { "HyponaTrack" }
    var today: String { s("Today", "Heute") }
    var activate: String { s("Start with your study code", "Mit Ihrem Studiencode beginnen") }
    var studyId: String { s("Study ID", "Studien-ID") }
    /// The header of every signed-in page: whose check-in this is.
    func studyIdLine(_ id: String) -> String { s("Study ID \(id)", "Studien-ID \(id)") }
    func signedInAs(_ id: String) -> String {
        s("This browser is signed in for study ID \(id). Activating another study ID signs \(id) out here.",
          "Dieser Browser ist für die Studien-ID \(id) angemeldet. Wenn Sie eine andere Studien-ID aktivieren, wird \(id) hier abgemeldet.")
    }
    func confirmSwitch(from id: String) -> String {
        s("Yes, sign out \(id) and use the study ID above in this browser",
          "Ja, \(id) abmelden und die oben eingegebene Studien-ID in diesem Browser nutzen")
    }
    var confirmSwitchMissing: String {
        s("Please tick the box to confirm, or go back to today's page.",
          "Bitte bestätigen Sie mit dem Häkchen, oder gehen Sie zurück zur heutigen Seite.")
    }
    var code: String { s("Activation code (from the study nurse)", "Aktivierungscode (von der Studienschwester)") }
    /// Unticked (the default) the patient is web-only: the reaction and tapping tests are not asked.
    var alsoApp: String { s("I also use the HyponaTrack app", "Ich nutze auch die HyponaTrack-App") }
    var alsoAppHint: String {
        s("Leave this empty if you use only this web page: then the app's reaction and tapping tests are not asked of you.",
          "Lassen Sie das Feld leer, wenn Sie nur diese Webseite nutzen: dann werden die Reaktions- und Tipptests der App nicht verlangt.")
    }
    /// The day after surgery in plain words (POD in an `abbr` for staff who ask).
    func dayAfterOperation(_ pod: Int) -> String {
        pod == 0 ? s("The day of your operation", "Der Tag Ihrer Operation") : s("Day \(pod) after your operation", "Tag \(pod) nach Ihrer Operation")
    }
    var showStudyId: String { s("Tell the clinic your study ID or show them this page:", "Nennen Sie der Klinik Ihre Studien-ID oder zeigen Sie diese Seite:") }
    var clinicPhone: String { s("Clinic", "Klinik") }
    var emergencyNumber: String { s("Emergency", "Notruf") }
    var vomiting: String { s("How many times have you vomited today? (0 if not at all)", "Wie oft haben Sie sich heute übergeben? (0, wenn gar nicht)") }
    var desmopressinDose: String { s("Desmopressin taken now (µg, as prescribed; optional)", "Desmopressin jetzt eingenommen (µg, wie verordnet; optional)") }
    func fluidLimit(_ ml: String) -> String { s("Your limit: \(ml) ml a day", "Ihre Grenze: \(ml) ml am Tag") }
    func problems(_ count: Int) -> String {
        count == 1 ? s("1 answer needs checking; it is marked below. Nothing was saved.", "1 Angabe muss geprüft werden; sie ist unten markiert. Es wurde nichts gespeichert.")
                   : s("\(count) answers need checking; each is marked below. Nothing was saved.", "\(count) Angaben müssen geprüft werden; jede ist unten markiert. Es wurde nichts gespeichert.")
    }
    var start: String { s("Start", "Starten") }
    var morningCheck: String { s("Morning check", "Morgen-Check") }
    var eveningCheck: String { s("Evening check", "Abend-Check") }
    var save: String { s("Save", "Speichern") }
    var signOut: String { s("Sign out on this device", "Auf diesem Gerät abmelden") }
    var yourLight: String { s("Your traffic light", "Ihre Ampel") }
    var noLight: String { s("No check yet today. Please do your morning check.", "Heute noch kein Check. Bitte machen Sie Ihren Morgen-Check.") }
    /// Today holds data, but nothing a rule reads (steps, an evening weight…): not evaluated, so no
    /// light, and not "no check" either (docs/clinical-rules.md §3).
    var notEvaluatedWord: String { s("NO LIGHT YET", "NOCH KEINE AMPEL") }
    var notEvaluated: String {
        s("Data for today has arrived, but nothing in it gives a traffic light yet. Please do your morning check.",
          "Ihre heutigen Daten sind angekommen, aber daraus ergibt sich noch keine Ampel. Bitte machen Sie Ihren Morgen-Check.")
    }
    var tasks: String { s("Today's tasks", "Heutige Aufgaben") }
    var reminders: String { s("Reminders today", "Erinnerungen heute") }
    var done: String { s("done", "erledigt") }
    var open: String { s("still to do", "noch offen") }
    var weightMorning: String { s("Weight this morning (kg), after the toilet, before breakfast", "Gewicht heute Morgen (kg), nach der Toilette, vor dem Frühstück") }
    var weightEvening: String { s("Weight this evening (kg)", "Gewicht heute Abend (kg)") }
    var urineSG: String { s("Urine specific gravity (from the test strip, e.g. 1.015; optional)", "Urin-Dichte (vom Teststreifen, z. B. 1,015; optional)") }
    var fluidIntake: String { s("Everything you drank today (ml)", "Alles, was Sie heute getrunken haben (ml)") }
    var fluidIntakeSoFar: String { s("What you have drunk so far today (ml; optional)", "Was Sie heute bisher getrunken haben (ml; optional)") }
    var symptoms: String { s("How are you feeling?", "Wie fühlen Sie sich?") }
    var emergency: String { s("Emergency signs", "Notfallzeichen") }
    var emergencyHint: String { s("Tick any you have now.", "Kreuzen Sie an, was Sie jetzt haben.") }
    var saved: String { s("Saved. Thank you.", "Gespeichert. Danke.") }
    var fixFields: String { s("Please check the marked fields. Nothing was saved.", "Bitte prüfen Sie die markierten Felder. Es wurde nichts gespeichert.") }
    var languageSwitch: String { s("Deutsch", "English") }
    var skip: String { s("Skip to content", "Zum Inhalt springen") }
    var monitoringOver: String { s("Your monitoring period has ended. Thank you for taking part.", "Ihr Beobachtungszeitraum ist zu Ende. Danke für Ihre Teilnahme.") }
    var call: String { s("Call", "Anrufen") }

    func levelWord(_ level: Level?) -> String {
        level.map { Vocabulary(language: language).level($0).uppercased() } ?? s("NO CHECK YET", "NOCH KEIN CHECK")
    }

    func task(_ task: CareTask) -> String {
        switch task {
        case .weightMorning: return s("Morning weight", "Morgengewicht")
        case .symptomsMorning: return s("Morning symptoms", "Symptome morgens")
        case .urineSG: return s("Urine test strip", "Urin-Teststreifen")
        case .fluidLog: return s("Fluid intake", "Trinkmenge")
        case .reactionTest: return s("Reaction test", "Reaktionstest")
        case .tappingTest: return s("Tapping test", "Tipptest")
        case .weightEvening: return s("Evening weight", "Abendgewicht")
        case .symptomsEvening: return s("Evening symptoms", "Symptome abends")
        case .desmopressin: return s("Desmopressin", "Desmopressin")
        }
    }
}
