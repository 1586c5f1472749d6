import HyponaTrackCore

/// The study's words people read on pages and in reports, in English and German: levels, risk
/// classes, alert kinds and states. The console and the PDF report both say them this way.
struct Vocabulary: Bilingual, Sendable {
    let language: Language

    func level(_ level: Level) -> String {
        switch level {
        case .green: return s("Green", "Grün")
        case .yellow: return s("Yellow", "Gelb")
        case .red: return s("Red", "Rot")
        case .info: return s("Info", "Info")
        }
    }

    func riskClass(_ c: RiskClass) -> String {
        switch c {
        case .low: return s("low", "niedrig")
        case .medium: return s("medium", "mittel")
        case .high: return s("high", "hoch")
        }
    }

    func alertKind(_ kind: AlertKind) -> String {
        switch kind {
        case .evaluation: return s("evaluation", "Auswertung")
        case .missingCheckin: return s("missing check-in", "fehlender Check-in")
        case .noData2d: return s("no data for 2 days", "2 Tage ohne Daten")
        }
    }

    func alertState(_ state: AlertState) -> String {
        switch state {
        case .open: return s("open", "offen")
        case .acknowledged: return s("acknowledged", "bestätigt")
        case .resolved: return s("resolved", "erledigt")
        }
    }
}
