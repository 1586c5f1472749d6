import Charts
import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// `/console/outcomes`: the outcome report (`GET /v1/outcomes/report`) — one column per cohort,
/// three bar charts (the lead-time histogram, alerts per 100 patient-days by POD, sensitivity
/// with its 95 % Wilson interval), each with its figures in a table beside it, the episodes, and
/// live beside shadow rules when they are set. Every definition: docs/clinical-rules.md.
struct OutcomesPage {
    let layout: ConsoleLayout
    let report: OutcomeReport
    /// The study's sites, for an all-sites member of a study with several (the site filter).
    var sites: [Int64: Site]? = nil
    /// The site the report is narrowed to ("" for all).
    var site = ""

    var t: ConsoleText { layout.t }
    func number(_ v: Double?, _ decimals: Int = 1) -> String { t.number(v, decimals: decimals) }

    /// `3/4 = 75,0 % (95 % CI 30,1–95,4 %)`.
    func share(_ p: Proportion) -> String {
        guard let v = p.value else { return "0/0" }
        return "\(p.count)/\(p.total) = \(number(v * 100)) % (95 % \(t.s("CI", "KI")) \(number((p.low ?? 0) * 100))–\(number((p.high ?? 0) * 100)) %)"
    }

    /// A share in a table cell: the figure and its interval each kept on one line, so a phone's
    /// narrow column breaks it once, between them, and not at every space.
    func shareCell(_ p: Proportion) -> HTML {
        guard let v = p.value else { return "0/0" }
        return """
            <span class="share">\(p.count)/\(p.total) = \(number(v * 100)) %</span> \
            <span class="share muted">(95 % \(t.s("CI", "KI")) \(number((p.low ?? 0) * 100))–\(number((p.high ?? 0) * 100)) %)</span>
            """
    }

    func render() -> HTML {
        let head: [HTML] = report.cohorts.map { c in "<th scope=\"col\" class=\"num\">\(t.cohortName(c.cohort))</th>" }
        let all = report.cohorts.first { $0.cohort == .all }
        let dates = [("from", report.query.from), ("to", report.query.to)].compactMap { k, v in v.map { (k, $0.description) } }
        let filter = SiteChoice.filter(action: "/console/outcomes", id: "outcomes-site", label: t.s("Outcomes of one site", "Ergebnisse eines Standorts"),
                                       sites: sites, selected: site, t: t, kept: dates)
        return layout.page(t.s("Outcomes", "Ergebnisse"), filter + """
            <p>\(t.s("Does the light work? Every hyponatremia episode, whether a yellow or red day came before it (within \(report.lookbackDays) days), how early, and at what alert burden.",
                     "Wirkt die Ampel? Jede Hyponatriämie-Episode, ob ihr ein gelber oder roter Tag vorausging (innerhalb von \(report.lookbackDays) Tagen), wie früh, und bei welcher Alarmlast."))</p>
            \(ConsoleLayout.scrolling("""
            <table id="outcome-figures"><caption class="muted">\(t.s("Rules version", "Regelversion")) \(report.rulesVersion); \
            \(t.s("an episode is a lab sodium below", "eine Episode ist ein Labor-Natrium unter")) \(number(report.hyponatremiaBelow, 0)) mmol/l \
            \(t.s("or one recorded by staff", "oder vom Team erfasst"))</caption>
            <thead><tr><th scope="col">\(t.s("Figure", "Kennzahl"))</th>\(head)</tr></thead><tbody>\(rows(report.cohorts))</tbody></table>
            """, labelledBy: "outcome-figures"))
            \(bySite())
            <div class="charts">\(all.map(charts) ?? HTML())</div>
            \(shadow())
            <h2 id="episodes">\(t.s("Episodes", "Episoden"))</h2>\(episodes())
            <ul class="downloads">\(StatisticsPage.download("outcomes", t.s("All outcomes (CSV)", "Alle Ereignisse (CSV)"), t, site: site))</ul>
            <p class="muted">\(t.s("Definitions: docs/clinical-rules.md, “Outcomes”. A study tool, not a validated medical device.",
                                  "Definitionen: docs/clinical-rules.md, „Outcomes“. Ein Studienwerkzeug, kein validiertes Medizinprodukt."))</p>
            """)
    }

    /// Each site's whole cohort side by side, when the report covers more than one site (the
    /// figures by site and risk class are in the API's `sites` and the CLI's `--csv`).
    private func bySite() -> HTML {
        guard report.sites.count > 1 else { return HTML() }
        let columns = report.sites.compactMap { s in s.cohorts.first { $0.cohort == .all } }
        let head: [HTML] = report.sites.map { s in "<th scope=\"col\" class=\"num\">\(s.site) – \(s.name)</th>" }
        return """
            <h2 id="by-site">\(t.s("By site", "Nach Standort"))</h2>
            \(ConsoleLayout.scrolling("""
            <table id="outcome-sites"><thead><tr><th scope="col">\(t.s("Figure", "Kennzahl"))</th>\(head)</tr></thead>\
            <tbody>\(rows(columns))</tbody></table>
            """, labelledBy: "by-site"))
            """
    }

    /// The figure rows, one column per cohort.
    private func rows(_ cohorts: [OutcomeFigures]) -> [HTML] {
        func cells(_ label: String, _ value: (OutcomeFigures) -> HTML) -> HTML {
            "<tr><th scope=\"row\">\(label)</th>\(cohorts.map { c -> HTML in "<td class=\"num\">\(value(c))</td>" })</tr>"
        }
        func row(_ label: String, _ value: (OutcomeFigures) -> String) -> HTML { cells(label) { "\(value($0))" } }
        return [
            row(t.s("Patients", "Patienten")) { "\($0.patients)" },
            row(t.s("Patient-days monitored", "Überwachte Patiententage")) { "\($0.patientDays)" },
            row(t.s("Hyponatremia episodes", "Hyponatriämie-Episoden")) { "\($0.episodes)" },
            cells(t.s("Warned by yellow or red (sensitivity)", "Mit Gelb oder Rot vorgewarnt (Sensitivität)")) { shareCell($0.yellowOrRed.sensitivity) },
            row(t.s("Median lead time, yellow or red (days)", "Median Vorlaufzeit, Gelb oder Rot (Tage)")) { number($0.yellowOrRed.medianLeadDays) },
            cells(t.s("Warned by red (sensitivity)", "Mit Rot vorgewarnt (Sensitivität)")) { shareCell($0.red.sensitivity) },
            row(t.s("Median lead time, red (days)", "Median Vorlaufzeit, Rot (Tage)")) { number($0.red.medianLeadDays) },
            row(t.s("Alerts opened", "Ausgelöste Alarme")) { "\($0.alerts.opened)" },
            row(t.s("Yellow alerts per 100 patient-days", "Gelbe Alarme je 100 Patiententage")) { number($0.alerts.per100.yellow, 2) },
            row(t.s("Red alerts per 100 patient-days", "Rote Alarme je 100 Patiententage")) { number($0.alerts.per100.red, 2) },
            row(t.s("Evaluation alerts per 100 patient-days", "Alarme aus der Auswertung je 100 Patiententage")) { number($0.alerts.per100.evaluation, 2) },
            row(t.s("Missing-data alerts per 100 patient-days", "Alarme wegen fehlender Daten je 100 Patiententage")) { c in
                number(c.alerts.per100.missingCheckin.map { $0 + (c.alerts.per100.noData2d ?? 0) }, 2) },
            cells(t.s("Positive predictive value", "Positiver prädiktiver Wert")) { shareCell($0.positivePredictiveValue) },
            row(t.s("Contacts per 100 patient-days", "Kontakte je 100 Patiententage")) { number($0.contactsPer100PatientDays, 2) },
            row(t.s("Minutes to acknowledgement: median", "Minuten bis zur Bestätigung: Median")) { number($0.ackMinutes.median) },
            row(t.s("Minutes to acknowledgement: p90", "Minuten bis zur Bestätigung: p90")) { number($0.ackMinutes.p90) },
        ]
    }

    private func charts(_ all: OutcomeFigures) -> HTML {
        let lookback = report.lookbackDays
        let days = (1...lookback).map(String.init)
        func histogram(_ w: Warnings) -> [Bar?] {
            w.leadHistogram.enumerated().map { i, n in Bar(value: Double(n), label: "\(n) \(t.s("episodes", "Episoden")), \(i + 1) d") }
        }
        let lead = BarChart(id: "lead", title: t.s("Lead time before an episode", "Vorlaufzeit vor einer Episode"),
                            summary: t.s("How many warned episodes had their first yellow-or-red (and red) day how many days before.",
                                         "Wie viele vorgewarnte Episoden ihren ersten gelben oder roten (und roten) Tag wie viele Tage vorher hatten."),
                            xTitle: t.s("Days before the episode", "Tage vor der Episode"), yTitle: t.s("Episodes", "Episoden"),
                            categories: days, series: [BarSeries(name: t.s("yellow or red", "Gelb oder Rot"), bars: histogram(all.yellowOrRed)),
                                                       BarSeries(name: t.s("red", "Rot"), bars: histogram(all.red))],
                            decimalSeparator: t.decimalSeparator, noDataText: t.s("No warned episode", "Keine vorgewarnte Episode"))
        let pods = all.alertsByPOD
        let byPOD = BarChart(id: "burden", title: t.s("Alerts per 100 patient-days by POD", "Alarme je 100 Patiententage nach POD"),
                             summary: t.s("Alerts opened on each post-operative day per 100 patient-days monitored on it.",
                                          "Ausgelöste Alarme an jedem postoperativen Tag je 100 an ihm überwachte Patiententage."),
                             xTitle: t.pod, yTitle: t.s("per 100 patient-days", "je 100 Patiententage"), categories: pods.map { String($0.pod) },
                             series: [BarSeries(name: t.s("alerts", "Alarme"), bars: pods.map { p in
                                 p.per100.map { Bar(value: $0, label: "\(p.alerts)/\(p.patientDays)") } })],
                             valueDecimals: 1, decimalSeparator: t.decimalSeparator, noDataText: t.s("No patient-days", "Keine Patiententage"))
        let classes = report.cohorts
        func sensitivity(_ w: (OutcomeFigures) -> Proportion) -> [Bar?] {
            classes.map { c in
                let p = w(c)
                return p.value.map { Bar(value: $0 * 100, low: (p.low ?? 0) * 100, high: (p.high ?? 0) * 100, label: share(p)) }
            }
        }
        let sens = BarChart(id: "sensitivity", title: t.s("Sensitivity with its 95 % interval", "Sensitivität mit 95-%-Intervall"),
                            summary: t.s("Share of episodes warned, by risk class, with the Wilson interval as a whisker.",
                                         "Anteil vorgewarnter Episoden nach Risikoklasse, mit dem Wilson-Intervall als Fehlerbalken."),
                            xTitle: t.riskClass, yTitle: "%", categories: classes.map { t.cohortName($0.cohort) },
                            series: [BarSeries(name: t.s("yellow or red", "Gelb oder Rot"), bars: sensitivity { $0.yellowOrRed.sensitivity }),
                                     BarSeries(name: t.s("red", "Rot"), bars: sensitivity { $0.red.sensitivity })],
                            include: [0, 100], decimalSeparator: t.decimalSeparator, noDataText: t.s("No episode", "Keine Episode"))
        return "\([lead, byPOD, sens].map(figure))"
    }

    private func figure(_ c: BarChart) -> HTML {
        // BarChartSVG escapes every text it writes and writes no script or style.
        let svg = HTML(unescaped: BarChartSVG.render(c, idPrefix: "outcome"))
        let rows: [HTML] = c.categories.enumerated().map { i, category in
            "<tr><th scope=\"row\">\(category)</th>\(c.series.map { s -> HTML in "<td>\(i < s.bars.count ? s.bars[i]?.label ?? "–" : "–")</td>" })</tr>"
        }
        let head: [HTML] = c.series.map { "<th scope=\"col\">\($0.name)</th>" }
        return """
            <figure class="chart" id="chart-\(c.id)" aria-labelledby="chart-\(c.id)-heading"><h3 id="chart-\(c.id)-heading">\(c.title)</h3>\(svg)
            <details><summary>\(t.s("Data table", "Datentabelle")): \(c.title)</summary>
            \(ConsoleLayout.scrolling("<table id=\"table-\(c.id)\"><thead><tr><th scope=\"col\">\(c.xTitle)</th>\(head)</tr></thead><tbody>\(rows)</tbody></table>", labelledBy: "chart-\(c.id)-heading"))</details></figure>
            """
    }

    private func shadow() -> HTML {
        guard let c = report.shadow else { return HTML() }
        let levels: [Level] = [.green, .yellow, .red]
        let matrix: [HTML] = levels.enumerated().map { i, live in
            "<tr><th scope=\"row\">\(t.vocabulary.level(live))</th>\(levels.indices.map { j -> HTML in "<td class=\"num\">\(c.matrix[i][j])</td>" })</tr>"
        }
        func side(_ label: String, _ value: (SideFigures) -> HTML) -> HTML {
            "<tr><th scope=\"row\">\(label)</th><td class=\"num\">\(value(c.live))</td><td class=\"num\">\(value(c.other))</td></tr>"
        }
        return """
            <h2 id="shadow">\(t.s("Live and shadow rules", "Live- und Schattenregeln"))</h2>
            <p>\(t.s("Shadow rules", "Schattenregeln")) <code>\(c.otherVersion)</code> \(t.s("beside the live rules", "neben den Live-Regeln")) <code>\(c.liveVersion)</code>\
            \(c.since.map { " \(t.s("since", "seit")) \(t.time($0, zone: ZoneRules(identifier: "UTC")!))" } ?? ""): \(c.daysCompared) \(t.s("patient-days compared", "Patiententage verglichen")).</p>
            \(ConsoleLayout.scrolling("""
            <table id="shadow-figures"><thead><tr><th scope="col">\(t.s("Figure", "Kennzahl"))</th><th scope="col" class="num">\(t.s("live", "live"))</th>\
            <th scope="col" class="num">\(t.s("shadow", "Schatten"))</th></tr></thead><tbody>
            \(side(t.s("Alerts per 100 patient-days (one per yellow or red day)", "Alarme je 100 Patiententage (einer je gelbem oder rotem Tag)")) { "\(number($0.alertsPer100PatientDays, 2))" })
            \(side(t.s("Sensitivity, yellow or red", "Sensitivität, Gelb oder Rot")) { shareCell($0.sensitivity) })
            \(side(t.s("Sensitivity, red", "Sensitivität, Rot")) { shareCell($0.redSensitivity) })
            \(side(t.s("Median lead time (days)", "Median Vorlaufzeit (Tage)")) { "\(number($0.medianLeadDays))" })
            \(side(t.s("Positive predictive value", "Positiver prädiktiver Wert")) { shareCell($0.positivePredictiveValue) })
            </tbody></table>
            """, labelledBy: "shadow"))
            <table id="shadow-matrix"><caption>\(t.s("Days by live level (rows) and shadow level (columns)", "Tage nach Live-Stufe (Zeilen) und Schatten-Stufe (Spalten)"))</caption>
            <thead><tr><th scope="col">\(t.s("live", "live"))</th>\(levels.map { l -> HTML in "<th scope=\"col\" class=\"num\">\(t.vocabulary.level(l))</th>" })</tr></thead>
            <tbody>\(matrix)</tbody></table>
            <p>\(t.s("Days whose level the shadow rules change", "Tage, deren Stufe die Schattenregeln ändern")): \(c.changedDayCount)</p>
            """
    }

    private func episodes() -> HTML {
        guard !report.episodes.isEmpty else { return "<p>\(t.s("No episodes recorded.", "Keine Episoden erfasst."))</p>" }
        let several = report.sites.count > 1
        let rows: [HTML] = report.episodes.map { e in
            let yr = e.yellowOrRedLeadDays.map { "\($0) d" } ?? "–", red = e.redLeadDays.map { "\($0) d" } ?? "–"
            let site: HTML = several ? "<td>\(e.site)</td>" : HTML()
            return """
                <tr><th scope="row"><a href="\(Console.patientPath(e.studyId, "#outcomes"))">\(e.studyId)</a></th>\(site)<td>\(t.riskWord(e.riskClass))</td>\
                <td>\(t.date(e.date))</td><td class="num">\(e.pod)</td><td class="num">\(yr)</td><td class="num">\(red)</td></tr>
                """
        }
        let siteHead: HTML = several ? "<th scope=\"col\">\(t.s("Site", "Standort"))</th>" : HTML()
        return ConsoleLayout.scrolling("""
            <table id="episode-list"><thead><tr><th scope="col">\(t.studyId)</th>\
            \(siteHead)<th scope="col">\(t.riskClass)</th>\
            <th scope="col">\(t.s("Date", "Datum"))</th><th scope="col" class="num">\(t.pod)</th>\
            <th scope="col" class="num">\(t.s("Lead, yellow or red", "Vorlauf, Gelb oder Rot"))</th><th scope="col" class="num">\(t.s("Lead, red", "Vorlauf, Rot"))</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """, labelledBy: "episodes")
    }
}
