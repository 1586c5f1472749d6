import HyponaTrackCore

/// Every fixed word of the report, in one language. Reason codes stay codes (docs/product.md,
/// "Report"): they are the vocabulary of the rule files and of REDCap.
struct ReportText: Sendable {
    let language: Language

    private func t(_ en: String, _ de: String) -> String { language == .de ? de : en }

    var decimalSeparator: String { t(".", ",") }
    var title: String { t("HyponaTrack clinical report", "HyponaTrack klinischer Bericht") }
    var studyId: String { t("Study ID", "Studien-ID") }
    var surgeryDate: String { t("Surgery date", "OP-Datum") }
    var timeZone: String { t("Time zone (all times)", "Zeitzone (alle Zeiten)") }
    var riskClass: String { t("Risk class", "Risikoklasse") }
    var riskPoints: String { t("Risk points Kat A / B / C", "Risikopunkte Kat A / B / C") }
    var katBPending: String { t("Kat B pending (surgical data not entered yet)", "Kat B ausstehend (OP-Daten noch nicht erfasst)") }
    var overridden: String { t("high by histology", "hoch wegen Histologie") }
    var monitoring: String { t("Monitoring period", "Überwachungszeitraum") }
    var extended: String { t("extended to POD 21", "verlängert bis POD 21") }
    var withdrawn: String { t("withdrawn", "ausgeschieden") }
    var status: String { t("Status", "Status") }
    var rulesVersion: String { t("Rules version", "Regelversion") }
    var generatedAt: String { t("Generated at", "Erstellt am") }
    var charts: String { t("Trend charts", "Verläufe") }
    var chartsNote: String {
        t("Dashed lines are this patient's scaled thresholds (yellow, red); marked points reached them in the day's evaluation.",
          "Gestrichelte Linien sind die skalierten Schwellen dieses Patienten (gelb, rot); markierte Punkte haben sie laut Tagesbewertung erreicht.")
    }
    var days: String { t("Days", "Tage") }
    var alerts: String { t("Alerts", "Alarme") }
    var labs: String { t("Lab values", "Laborwerte") }
    var noData: String { t("No data recorded", "Keine Daten erfasst") }
    var noAlerts: String { t("No alerts.", "Keine Alarme.") }
    var noLabs: String { t("No lab values.", "Keine Laborwerte.") }
    var continued: String { t("(continued)", "(Fortsetzung)") }
    var disclaimer: String {
        t("Not a validated medical device. The clinical rules are defaults derived from published evidence, not a validated clinical rule.",
          "Kein validiertes Medizinprodukt. Die klinischen Regeln sind aus publizierter Evidenz abgeleitete Vorgaben, keine validierte klinische Regel.")
    }
    var shortDisclaimer: String { t("Not a validated medical device.", "Kein validiertes Medizinprodukt.") }
    var rulesNote: String {
        t("Each day was evaluated with the rules version shown in its evaluation; the version in force now is given above.",
          "Jeder Tag wurde mit der Regelversion seiner Bewertung beurteilt; oben steht die jetzt gültige Version.")
    }
    var versionsUsed: String { t("Rules versions of the evaluations", "Regelversionen der Bewertungen") }

    func page(_ n: Int, of m: Int) -> String { t("Page \(n) of \(m)", "Seite \(n) von \(m)") }

    // Day table
    var dayColumn: String { t("Date (POD)", "Datum (POD)") }
    var levelColumn: String { t("Level", "Stufe") }
    var weightColumn: String { t("Weight a.m. (kg)", "Gewicht morgens (kg)") }
    var fluidColumn: String { t("Fluid (mL)", "Zufuhr (mL)") }
    var sgColumn: String { t("Urine SG", "Urin-SG") }
    var symptomColumn: String { t("Symptom score", "Symptom-Score") }
    var reasonsColumn: String { t("Reasons (code: value, threshold)", "Gründe (Code: Wert, Schwelle)") }
    var threshold: String { t("threshold", "Schwelle") }

    // Alert table
    var alertColumn: String { t("Alert (date, POD)", "Alarm (Datum, POD)") }
    var kindColumn: String { t("Kind, level", "Art, Stufe") }
    var openedColumn: String { t("Opened", "Geöffnet") }
    var acknowledgedColumn: String { t("Acknowledged", "Bestätigt") }
    var resolvedColumn: String { t("Resolved", "Erledigt") }
    var by: String { t("by", "von") }
    var sodium: String { t("sodium", "Natrium") }
    var notYet: String { t("not yet", "noch nicht") }

    // Lab table
    var labTimeColumn: String { t("Time", "Zeit") }
    var labDayColumn: String { t("Date (POD)", "Datum (POD)") }
    var labValueColumn: String { t("Sodium (mmol/L)", "Natrium (mmol/L)") }

    var vocabulary: Vocabulary { Vocabulary(language: language) }
    func level(_ level: Level?) -> String { level.map(vocabulary.level) ?? "–" }
    func riskClass(_ c: RiskClass) -> String { vocabulary.riskClass(c) }
    func alertKind(_ kind: AlertKind) -> String { vocabulary.alertKind(kind) }

    func active(_ active: Bool) -> String { active ? t("monitoring", "in Überwachung") : t("monitoring ended", "Überwachung beendet") }
}
