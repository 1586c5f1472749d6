import HyponaTrackCore
import HyponaTrackDomain

/// The console's words in English and German, side by side so neither can be forgotten.
struct ConsoleText: Sendable, Bilingual {
    let language: Language

    init(_ language: Language) { self.language = language }


    var product: String { "HyponaTrack" }
    var board: String { s("Ward board", "Stationsübersicht") }
    var alerts: String { s("Alert inbox", "Alarm-Eingang") }
    var statistics: String { s("Statistics", "Statistik") }
    var sync: String { s("Sync and hooks", "Synchronisierung und Hooks") }
    var signIn: String { s("Sign in", "Anmelden") }
    var signOut: String { s("Sign out", "Abmelden") }
    var name: String { s("Name", "Name") }
    var password: String { s("Password", "Passwort") }
    var signedInAs: String { s("Signed in as", "Angemeldet als") }
    var wrongCredentials: String { s("The name or password is not right.", "Name oder Passwort stimmen nicht.") }
    var studyId: String { s("Study ID", "Studien-ID") }
    var level: String { s("Level", "Stufe") }
    var pod: String { s("POD", "POD") }
    var riskClass: String { s("Risk class", "Risikoklasse") }
    var lastSubmission: String { s("Last submission", "Letzte Übermittlung") }
    var missingChecks: String { s("Missing checks", "Fehlende Checks") }
    var openAlerts: String { s("Open alerts", "Offene Alarme") }
    var status: String { s("Status", "Status") }
    var never: String { s("never", "nie") }
    var none: String { s("none", "keine") }
    var showAll: String { s("Show finished and withdrawn patients too", "Auch beendete und ausgeschiedene Patienten zeigen") }
    var showActive: String { s("Show only patients to watch", "Nur zu beobachtende Patienten zeigen") }
    var noPatients: String { s("No patients to show.", "Keine Patienten anzuzeigen.") }
    var disclaimer: String {
        s("Decision support for the study team; it does not replace clinical judgement. In an emergency call the emergency number.",
          "Entscheidungshilfe für das Studienteam; ersetzt nicht das ärztliche Urteil. Im Notfall den Notruf wählen.")
    }
    var skipToContent: String { s("Skip to content", "Zum Inhalt springen") }
    var languageSwitch: String { s("Deutsch", "English") }

    var vocabulary: Vocabulary { Vocabulary(language: language) }

    /// The level in capitals for the badge; no evaluation yet is "NO DATA".
    func levelWord(_ level: Level?) -> String { level.map { vocabulary.level($0).uppercased() } ?? s("NO DATA", "KEINE DATEN") }
    func riskWord(_ c: RiskClass) -> String { vocabulary.riskClass(c) }

    func status(_ st: WardBoard.Status) -> String {
        switch st {
        case .notActivated: return s("not activated yet", "noch nicht aktiviert")
        case .activationOverdue: return s("not activated after 24 h", "nach 24 h nicht aktiviert")
        case .beforeMonitoring: return s("monitoring not started", "Monitoring noch nicht begonnen")
        case .monitoring: return s("monitoring", "im Monitoring")
        case .finished: return s("monitoring ended", "Monitoring beendet")
        case .withdrawn: return s("withdrawn", "ausgeschieden")
        }
    }

    func missing(_ m: WardBoard.MissingCheck) -> String {
        let slot = m.slot == .morning ? s("morning", "Morgen") : s("evening", "Abend")
        return m.daysAgo == 0 ? s("today \(slot)", "heute \(slot)") : s("yesterday \(slot)", "gestern \(slot)")
    }

    /// "5 min ago", "3 h ago", "2 d ago".
    func age(seconds: Double) -> String {
        let m = Int(max(0, seconds) / 60)
        if m < 60 { return s("\(m) min ago", "vor \(m) min") }
        if m < 48 * 60 { return s("\(m / 60) h ago", "vor \(m / 60) h") }
        return s("\(m / 1440) d ago", "vor \(m / 1440) d")
    }

    func alertState(_ st: AlertState) -> String { vocabulary.alertState(st) }

    /// A day on a page: "4 Dec" in English, "4.12.2026" in German.
    func day(_ d: LocalDate) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return s("\(d.day) \(months[d.month - 1])", "\(d.day).\(d.month).\(d.year)")
    }

    /// A date in a page's text: `2026-12-06` in English, `6.12.2026` in German (data exports and
    /// attributes stay ISO).
    func date(_ d: LocalDate) -> String { vocabulary.date(d) }

    /// A time on a page in the given zone: `2026-12-06 08:30` in English, `6.12.2026 08:30` in German;
    /// "–" for none.
    func time(_ ms: Int64?, zone: ZoneRules) -> String {
        let iso = ConsoleLayout.time(ms, zone: zone)
        guard language == .de, let space = iso.firstIndex(of: " "), let day = LocalDate(String(iso[..<space])) else { return iso }
        return date(day) + iso[space...]
    }

    /// The board's handling states in words.
    func handling(_ h: BoardHandling) -> String {
        switch h {
        case .new: return s("new", "neu")
        case .newDataSinceAcknowledged: return s("new data since acknowledged", "neue Daten seit Bestätigung")
        case .acknowledged: return s("acknowledged", "bestätigt")
        case .contacted: return s("contacted", "kontaktiert")
        case .resolved: return s("resolved", "erledigt")
        }
    }
}
