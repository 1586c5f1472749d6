import HyponaTrackCore

/// Every fixed word of the report, in one language. Reason codes stay in it (docs/product.md,
/// "Report"), the vocabulary of the rule files and of REDCap, each under its label.
struct ReportText: Bilingual, Sendable {
    let language: Language

    var decimalSeparator: String { s(".", ",") }
    var title: String { s("HyponaTrack clinical report", "HyponaTrack klinischer Bericht") }
    var studyId: String { s("Study ID", "Studien-ID") }
    var surgeryDate: String { s("Surgery date", "OP-Datum") }
    var timeZone: String { s("Time zone (all times)", "Zeitzone (alle Zeiten)") }
    var riskClass: String { s("Risk class", "Risikoklasse") }
    var riskPoints: String { s("Risk points Kat A / B / C", "Risikopunkte Kat A / B / C") }
    var katBPending: String { s("Kat B pending (surgical data not entered yet)", "Kat B ausstehend (OP-Daten noch nicht erfasst)") }
    var overridden: String { s("high by histology", "hoch wegen Histologie") }
    var monitoring: String { s("Monitoring period", "Überwachungszeitraum") }
    var extended: String { s("extended to POD 21", "verlängert bis POD 21") }
    var withdrawn: String { s("withdrawn", "ausgeschieden") }
    var status: String { s("Status", "Status") }
    var rulesVersion: String { s("Rules version", "Regelversion") }
    var generatedAt: String { s("Generated at", "Erstellt am") }
    var charts: String { s("Trend charts", "Verläufe") }
    var chartsNote: String {
        s("Dashed lines are this patient's scaled thresholds (yellow, red); marked points reached them in the day's evaluation.",
          "Gestrichelte Linien sind die skalierten Schwellen dieses Patienten (gelb, rot); markierte Punkte haben sie laut Tagesbewertung erreicht.")
    }
    var days: String { s("Days", "Tage") }
    var alerts: String { s("Alerts", "Alarme") }
    var labs: String { s("Lab values", "Laborwerte") }
    var noData: String { s("No data recorded", "Keine Daten erfasst") }
    var noAlerts: String { s("No alerts.", "Keine Alarme.") }
    var noLabs: String { s("No lab values.", "Keine Laborwerte.") }
    var continued: String { s("(continued)", "(Fortsetzung)") }
    var disclaimer: String {
        s("Not a validated medical device. The clinical rules are defaults derived from published evidence, not a validated clinical rule.",
          "Kein validiertes Medizinprodukt. Die klinischen Regeln sind aus publizierter Evidenz abgeleitete Vorgaben, keine validierte klinische Regel.")
    }
    var shortDisclaimer: String { s("Not a validated medical device.", "Kein validiertes Medizinprodukt.") }
    var rulesNote: String {
        s("Each day was evaluated with the rules version shown in its evaluation; the version in force now is given above.",
          "Jeder Tag wurde mit der Regelversion seiner Bewertung beurteilt; oben steht die jetzt gültige Version.")
    }
    var versionsUsed: String { s("Rules versions of the evaluations", "Regelversionen der Bewertungen") }

    func page(_ n: Int, of m: Int) -> String { s("Page \(n) of \(m)", "Seite \(n) von \(m)") }

    // Day table
    var dayColumn: String { s("Date (POD)", "Datum (POD)") }
    var levelColumn: String { s("Level", "Stufe") }
    var weightColumn: String { s("Weight a.m. (kg)", "Gewicht morgens (kg)") }
    var fluidColumn: String { s("Fluid (mL)", "Zufuhr (ml)") }
    var sgColumn: String { s("Urine SG", "Urin-SG") }
    var symptomColumn: String { s("Symptom score", "Symptom-Score") }
    var reasonsColumn: String { s("Reasons (rule code below)", "Gründe (Regelcode darunter)") }

    // Alert table
    var alertColumn: String { s("Alert (date, POD)", "Alarm (Datum, POD)") }
    var kindColumn: String { s("Kind, level", "Art, Stufe") }
    var openedColumn: String { s("Opened", "Geöffnet") }
    var acknowledgedColumn: String { s("Acknowledged", "Bestätigt") }
    var resolvedColumn: String { s("Resolved", "Erledigt") }
    var by: String { s("by", "von") }
    var sodium: String { s("sodium", "Natrium") }
    var notYet: String { s("not yet", "noch nicht") }

    var contactsColumn: String { s("Contacts", "Kontakte") }
    func attempts(_ n: Int) -> String { n == 1 ? s("1 attempt", "1 Versuch") : s("\(n) attempts", "\(n) Versuche") }

    // Contact table
    var contacts: String { s("Contacts with the patient", "Kontakte mit dem Patienten") }
    var noContacts: String { s("No contacts logged.", "Keine Kontakte erfasst.") }
    var outcomes: String { s("Outcomes", "Ereignisse") }
    var noOutcomes: String { s("No outcomes recorded.", "Keine Ereignisse erfasst.") }
    var eventColumn: String { s("Outcome", "Ereignis") }
    var sourceColumn: String { s("Source", "Quelle") }
    var outcomeColumn: String { s("Outcome", "Ergebnis") }
    var alertNumberColumn: String { s("Alert", "Alarm") }
    var staffColumn: String { s("Logged by", "Erfasst von") }
    var noteColumn: String { s("Note", "Notiz") }

    // Lab table
    var labTimeColumn: String { s("Time", "Zeit") }
    var labDayColumn: String { s("Date (POD)", "Datum (POD)") }
    var labValueColumn: String { s("Sodium (mmol/L)", "Natrium (mmol/l)") }

    var vocabulary: Vocabulary { Vocabulary(language: language) }
    func level(_ level: Level?) -> String { level.map(vocabulary.level) ?? "–" }
    func riskClass(_ c: RiskClass) -> String { vocabulary.riskClass(c) }

    func active(_ active: Bool) -> String { active ? s("monitoring", "in Überwachung") : s("monitoring ended", "Überwachung beendet") }
}
