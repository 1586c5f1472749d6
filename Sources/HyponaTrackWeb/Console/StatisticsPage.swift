import Charts
import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// `/console/statistics`: the cohort figures of `GET /v1/statistics`, one column per cohort.
struct StatisticsPage {
    let layout: ConsoleLayout
    let statistics: StudyStatistics
    /// The study's sites, for an all-sites member of a study with several (the site filter).
    var sites: [Int64: Site]? = nil
    /// The site the figures and downloads are narrowed to ("" for all).
    var site = ""

    var t: ConsoleText { layout.t }
    func number(_ v: Double?, _ decimals: Int = 1) -> String { t.number(v, decimals: decimals) }

    func render() -> HTML {
        let cohorts = statistics.cohorts
        func row(_ label: String, _ value: (CohortStatistics) -> String) -> HTML {
            "<tr><th scope=\"row\">\(label)</th>\(cohorts.map { c -> HTML in "<td class=\"num\">\(value(c))</td>" })</tr>"
        }
        let head: [HTML] = cohorts.map { c in "<th scope=\"col\" class=\"num\">\(cohortName(c.cohort))</th>" }
        let rows: [HTML] = [
            row(t.s("Patients enrolled", "Eingeschlossene Patienten")) { "\($0.patients.enrolled)" },
            row(t.s("active", "aktiv")) { "\($0.patients.active)" },
            row(t.s("finished", "beendet")) { "\($0.patients.finished)" },
            row(t.s("withdrawn", "ausgeschieden")) { "\($0.patients.withdrawn)" },
            row(t.s("Patient-days", "Patiententage")) { "\($0.patientDays)" },
            row(t.s("Adherence (tasks done / due)", "Adhärenz (erledigte / fällige Aufgaben)")) { c in
                c.adherence.map { "\(number($0 * 100)) % (\(c.tasksDone)/\(c.tasksDue))" } ?? "–" },
            row(t.s("Days green", "Tage grün")) { "\($0.daysByLevel.green)" },
            row(t.s("Days yellow", "Tage gelb")) { "\($0.daysByLevel.yellow)" },
            row(t.s("Days red", "Tage rot")) { "\($0.daysByLevel.red)" },
            row(t.s("Days without evaluation", "Tage ohne Auswertung")) { "\($0.daysByLevel.none)" },
            row(t.s("Red alerts per 100 patient-days", "Rote Alarme je 100 Patiententage")) { number($0.alertsPer100PatientDays.red) },
            row(t.s("Yellow alerts per 100 patient-days", "Gelbe Alarme je 100 Patiententage")) { number($0.alertsPer100PatientDays.yellow) },
            row(t.s("Evaluation alerts per 100 patient-days", "Alarme aus der Auswertung je 100 Patiententage")) {
                number($0.alertsPer100PatientDays.evaluation) },
            row(t.s("Missed check-in alerts per 100 patient-days", "Alarme wegen versäumter Abfrage je 100 Patiententage")) {
                number($0.alertsPer100PatientDays.missingCheckin) },
            row(t.s("\(t.vocabulary.noData(days: statistics.noDataDays, capitalised: true)): alerts per 100 patient-days",
                    "Alarme „\(t.vocabulary.noData(days: statistics.noDataDays))“ je 100 Patiententage")) {
                number($0.alertsPer100PatientDays.noData2d) },
            row(t.s("Missing-data alerts", "Alarme wegen fehlender Daten")) { "\($0.missingDataAlerts)" },
            row(t.s("Minutes to acknowledgement: median", "Minuten bis zur Bestätigung: Median")) { number($0.ackMinutes.median) },
            row(t.s("Minutes to acknowledgement: p90", "Minuten bis zur Bestätigung: p90")) { number($0.ackMinutes.p90) },
            row(t.s("Alerts acknowledged (n)", "Bestätigte Alarme (n)")) { "\($0.ackMinutes.n)" },
            row(t.s("Minutes to resolution: median", "Minuten bis zur Erledigung: Median")) { number($0.resolveMinutes.median) },
            row(t.s("Minutes to resolution: p90", "Minuten bis zur Erledigung: p90")) { number($0.resolveMinutes.p90) },
            row(t.s("Alerts resolved (n)", "Erledigte Alarme (n)")) { "\($0.resolveMinutes.n)" },
        ]
        let table: HTML = """
            <table id="statistics"><caption class="muted" id="statistics-caption">\(t.s("Computed from the stored data", "Aus den gespeicherten Daten berechnet"))</caption>
            <thead><tr><th scope="col">\(t.s("Figure", "Kennzahl"))</th>\(head)</tr></thead><tbody>\(rows)</tbody></table>
            """
        return layout.page(t.statistics, siteForm + """
            \(ConsoleLayout.scrolling(table, labelledBy: "statistics-caption"))
            <h2>\(t.s("Exports", "Exporte"))</h2>
            <ul class="downloads">\(download("days", t.s("All days (CSV)", "Alle Tage (CSV)")))\
            \(download("alerts", t.s("All alerts (CSV)", "Alle Alarme (CSV)")))\
            \(download("contacts", t.s("All contacts (CSV)", "Alle Kontakte (CSV)")))\
            \(download("outcomes", t.s("All outcomes (CSV)", "Alle Ereignisse (CSV)")))</ul>
            <p class="muted">\(t.s("Every download is audited. The Excel variant has a byte order mark, semicolons and, on a German page, decimal commas.",
                                  "Jeder Download wird protokolliert. Die Excel-Variante hat eine Byte-Order-Mark, Semikolons und auf einer deutschen Seite Dezimalkommas."))</p>
            """)
    }

    /// The site filter, for all-sites members.
    var siteForm: HTML {
        SiteChoice.filter(action: "/console/statistics", id: "statistics-site", label: t.s("Statistics of one site", "Kennzahlen eines Standorts"),
                          sites: sites, selected: site, t: t)
    }

    /// A CSV download and, next to it, the same file for Excel in the page's language (both of
    /// the chosen site, if one is).
    func download(_ kind: String, _ label: String) -> HTML { Self.download(kind, label, t, site: site) }

    static func download(_ kind: String, _ label: String, _ t: ConsoleText, site: String = "") -> HTML {
        let path = "/console/export/\(kind).csv"
        let plain: HTML = site.isEmpty ? "\(path)" : "\(path)?site=\(site)"
        let excel: HTML = "\(path)?dialect=excel&amp;lang=\(t.language.rawValue)" + (site.isEmpty ? HTML() : "&amp;site=\(site)")
        return """
            <li><a href="\(plain)" download>\(label)</a> · <a href="\(excel)" download \
            class="excel">\(t.s("for Excel", "für Excel"))</a></li>
            """
    }

    func cohortName(_ c: Cohort) -> String { t.cohortName(c) }
}

extension ConsoleText {
    func cohortName(_ c: Cohort) -> String {
        switch c {
        case .all: return s("all", "alle")
        case .low: return s("low risk", "niedriges Risiko")
        case .medium: return s("medium risk", "mittleres Risiko")
        case .high: return s("high risk", "hohes Risiko")
        }
    }
}
