import HyponaTrackCore

/// The study's words people read on pages and in reports, in English and German: levels, risk
/// classes, alert kinds and states. The console and the PDF report both say them this way.
struct Vocabulary: Sendable {
    let language: Language

    private func t(_ en: String, _ de: String) -> String { language == .de ? de : en }

    func level(_ level: Level) -> String {
        switch level {
        case .green: return t("Green", "Grün")
        case .yellow: return t("Yellow", "Gelb")
        case .red: return t("Red", "Rot")
        case .info: return t("Info", "Info")
        }
    }

    func riskClass(_ c: RiskClass) -> String {
        switch c {
        case .low: return t("low", "niedrig")
        case .medium: return t("medium", "mittel")
        case .high: return t("high", "hoch")
        }
    }

    func alertKind(_ kind: AlertKind) -> String {
        switch kind {
        case .evaluation: return t("evaluation", "Auswertung")
        case .missingCheckin: return t("missing check-in", "fehlender Check-in")
        case .noData2d: return t("no data for 2 days", "2 Tage ohne Daten")
        }
    }

    func alertState(_ state: AlertState) -> String {
        switch state {
        case .open: return t("open", "offen")
        case .acknowledged: return t("acknowledged", "bestätigt")
        case .resolved: return t("resolved", "erledigt")
        }
    }
}
