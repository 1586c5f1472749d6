import Charts
import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// `/console/patients/{studyId}`: profile and Kat A/B/C, alerts with their forms, contacts and
/// the contact form, lab values
/// and the lab form, the trend charts (inline SVG with the patient's scaled thresholds, each
/// with a data table), and the day table.
struct PatientPage {
    let layout: ConsoleLayout
    let detail: PatientDetail
    let alerts: [AlertView]
    /// The patient's contact attempts, newest first.
    var contacts: [ContactRecord] = []
    /// The patient's outcomes by date.
    var outcomes: [OutcomeRecord] = []
    /// The push devices and the last 14 days' push reminders (nil: not shown).
    var reminders: PatientReminders?
    let charts: [Chart]
    let zone: ZoneRules
    /// The rules in force: their version is shown, and the silent days a `no_data_2d` names.
    let rules: RuleSet
    var errors = FormErrors()

    var t: ConsoleText { layout.t }
    var studyId: String { detail.summary.patient.studyId }
    var sep: String { t.language == .de ? "," : "." }

    func render() -> HTML {
        let alertTable = AlertTable(layout: layout, zone: { _ in zone }, back: "patient", errors: errors,
                                    facts: ReasonWording.Facts(rules: rules))
        let contactLog = ContactForm(layout: layout, errors: errors)
        let report = "/console/patients/\(URLComponentEncoding.segment(studyId))/report.pdf"
        let content: HTML = """
            \(done())\(profile())
            <p>\(manageLink())<a href="\(report)" download>\(t.s("Clinical report (PDF)", "Klinischer Bericht (PDF)"))</a> <span class="muted">(\(t.s("audited", "protokolliert")))</span></p>
            <h2 id="alerts">\(t.s("Alerts", "Alarme"))</h2>
            \(alertTable.render(alerts, showPatient: false))
            <h2 id="contacts">\(t.s("Contacts", "Kontakte"))</h2>
            \(contactLog.list(contacts, zone: zone))\(contactLog.patientForm(studyId: studyId, alerts: alerts))
            \(OutcomeSection(layout: layout, outcomes: outcomes, studyId: studyId, errors: errors).render())
            \(reminders.map { ReminderSection(t: t, reminders: $0, zone: zone).render() } ?? HTML())
            <h2 id="labs">\(t.s("Lab sodium", "Labor-Natrium"))</h2>
            \(labs())\(labForm())
            <h2 id="trends">\(t.s("Trends", "Verläufe"))</h2>
            <div class="charts">\(charts.map(chart))</div>
            <h2 id="days">\(t.s("Days", "Tage"))</h2>
            \(dayTable())
            <p class="muted">\(t.s("Rules version", "Regelversion")) <code>\(rules.version)</code></p>
            """
        return layout.page("\(t.s("Patient", "Patient")) \(studyId)", content)
    }

    /// What a management form just did (its 303 lands here with `?done=`), said once at the top.
    private func done() -> HTML {
        let said: String
        switch layout.request.http.query["done"] {
        case "profile"?: said = t.s("Profile saved; the monitoring window was evaluated again.", "Profil gespeichert; der Beobachtungszeitraum wurde neu bewertet.")
        case "day"?: said = t.s("Correction saved; the day was evaluated again.", "Korrektur gespeichert; der Tag wurde neu bewertet.")
        case "lab-deleted"?: said = t.s("Lab value deleted (kept in the audit trail with the reason).", "Laborwert gelöscht (mit dem Grund im Audit-Protokoll festgehalten).")
        case "withdrawn"?: said = t.s("The patient was withdrawn from the study.", "Der Patient wurde aus der Studie genommen.")
        default: return HTML()
        }
        return "<p class=\"notice\" role=\"status\" id=\"done\">\(said)</p>"
    }

    private func manageLink() -> HTML {
        guard let session = layout.session, session.role.canWrite, !detail.summary.patient.isWithdrawn else { return HTML() }
        return "<a href=\"\(Console.patientPath(studyId, "/manage"))\">\(t.manage)</a> · "
    }

    private func profile() -> HTML {
        let s = detail.summary
        let risk = s.risk
        let katB: HTML = risk.katBPending ? "\(risk.katB) (\(t.s("pending", "ausstehend")))" : "\(risk.katB)"
        let activation = s.patient.activatedAt.map { t.time($0, zone: zone) } ?? t.s("not activated yet", "noch nicht aktiviert")
        let state = s.patient.isWithdrawn ? t.s("withdrawn", "ausgeschieden")
            : (s.monitoringActive ? t.s("monitoring", "im Monitoring") : t.s("not in monitoring", "nicht im Monitoring"))
        return """
            <dl class="profile">
            <dt>\(t.studyId)</dt><dd>\(studyId)</dd>
            <dt>\(t.s("Site", "Standort"))</dt><dd id="patient-site">\(s.site)</dd>
            <dt>\(t.level)</dt><dd>\(layout.badge(s.current?.level))</dd>
            <dt>\(t.s("Surgery date", "OP-Datum"))</dt><dd>\(t.date(s.patient.profile.surgeryDate))</dd>
            <dt>\(t.pod)</dt><dd>\(s.pod)</dd>
            <dt>\(t.riskClass)</dt><dd>\(t.riskWord(risk.riskClass)) (\(t.s("score", "Punkte")) \(risk.riskScore): Kat A \(risk.katA), Kat B \(katB), Kat C \(risk.katC))</dd>
            <dt>\(t.s("Monitoring", "Monitoring"))</dt><dd>\(t.date(detail.monitoringStarts)) – \(t.date(s.monitoringEnds)) (\(state))</dd>
            <dt>\(t.s("Activated", "Aktiviert"))</dt><dd>\(activation)</dd>
            <dt>\(t.s("Time zone", "Zeitzone"))</dt><dd>\(s.patient.profile.timeZone)</dd>
            <dt>\(t.openAlerts)</dt><dd>\(s.openAlerts)</dd>
            </dl>
            """
    }

    private func labs() -> HTML {
        let values = detail.timeline.flatMap { day in day.day.labSodium.map { (day.day.date, $0) } }
        guard !values.isEmpty else { return "<p>\(t.s("No lab values.", "Keine Laborwerte."))</p>" }
        let rows: [HTML] = values.map { date, lab in
            "<tr><td>\(t.date(date))</td><td>\(t.time(Int64(lab.time.epochSeconds * 1000), zone: zone))</td><td class=\"num\">\(ChartNumber.format(lab.value, decimals: 1, trimZeros: true, separator: sep))</td></tr>"
        }
        return """
            <table id="lab-values"><thead><tr><th scope="col">\(t.s("Date", "Datum"))</th><th scope="col">\(t.s("Time", "Zeit"))</th>
            <th scope="col" class="num">\(t.s("Sodium mmol/L", "Natrium mmol/l"))</th></tr></thead><tbody>\(rows)</tbody></table>
            """
    }

    private func labForm() -> HTML {
        guard let session = layout.session, session.role.canWrite else { return HTML() }
        func invalid(_ field: String) -> HTML {
            errors.message("lab", field) != nil ? " aria-invalid=\"true\" aria-describedby=\"lab-\(field)-error\"" : HTML()
        }
        func error(_ field: String) -> HTML {
            errors.message("lab", field).map { "<p class=\"error\" id=\"lab-\(field)-error\">\($0)</p>" } ?? HTML()
        }
        return """
            <form method="post" action="/console/patients/\(URLComponentEncoding.segment(studyId))/labs" id="lab-form">\(ConsoleLayout.csrf(session))
            <div class="field"><label for="lab-sodium">\(t.s("Sodium (mmol/L)", "Natrium (mmol/l)"))</label>
            <input type="text" inputmode="decimal" id="lab-sodium" name="sodium" required value="\(errors.value("lab", "sodium"))"\(invalid("sodium"))>\(error("sodium"))</div>
            <div class="field"><label for="lab-time">\(t.s("Time of the sample (patient's local time; empty: now)", "Zeitpunkt der Probe (Ortszeit des Patienten; leer: jetzt)"))</label>
            <input type="datetime-local" id="lab-time" name="time" value="\(errors.value("lab", "time"))"\(invalid("time"))>\(error("time"))</div>
            <button type="submit">\(t.s("Enter lab value", "Laborwert eintragen"))</button></form>
            """
    }

    private func chart(_ c: Chart) -> HTML {
        let table = c.table()
        let tableId = "table-\(c.id)"
        let head: [HTML] = table.columns.map { "<th scope=\"col\">\($0)</th>" }
        let rows: [HTML] = table.rows.map { row in
            "<tr>\(row.enumerated().map { i, cell -> HTML in i == 0 ? "<th scope=\"row\">\(cell)</th>" : "<td>\(cell)</td>" })</tr>"
        }
        // ChartSVG escapes every text it writes (XMLText) and writes no script or style.
        let svg = HTML(unescaped: ChartSVG.render(c, idPrefix: "chart"))
        return """
            <figure class="chart" id="chart-\(c.id)" aria-labelledby="chart-\(c.id)-heading"><h3 id="chart-\(c.id)-heading">\(c.title)</h3>\(svg)
            <p><a href="#\(tableId)">\(t.s("Data table", "Datentabelle"))</a></p>
            <details><summary>\(t.s("Data table", "Datentabelle")): \(c.title)</summary>
            \(ConsoleLayout.scrolling("<table id=\"\(tableId)\"><caption id=\"\(tableId)-caption\">\(table.caption)</caption><thead><tr>\(head)</tr></thead><tbody>\(rows)</tbody></table>", labelledBy: "\(tableId)-caption"))</details></figure>
            """
    }

    /// A day's reasons; a day that is not evaluated says so (it has none).
    private func reasons(_ evaluation: StoredEvaluation?) -> HTML {
        if let evaluation, evaluation.level == nil { return "<span class=\"muted\">\(t.vocabulary.notEvaluated)</span>" }
        return ReasonText.list(evaluation?.reasons ?? [], ReasonWording(t.language, rules: rules))
    }

    private func dayTable() -> HTML {
        guard !detail.timeline.isEmpty else { return "<p>\(t.s("No data recorded.", "Keine Daten erfasst."))</p>" }
        let f = { (v: Double?, d: Int) -> String in v.map { ChartNumber.format($0, decimals: d, trimZeros: true, separator: sep) } ?? "–" }
        let rows: [HTML] = detail.timeline.reversed().map { d in
            let day = d.day
            return """
                <tr data-date="\(day.date.description)"><th scope="row">\(t.date(day.date))</th><td class="num">\(d.pod)</td>\
                <td>\(layout.badge(d.evaluation?.level))</td><td>\(reasons(d.evaluation))</td>\
                <td class="num">\(f(day.weightMorningKg, 2))</td><td class="num">\(f(day.weightEveningKg, 2))</td>\
                <td class="num">\(f(day.fluidIntakeMl, 0))</td><td class="num">\(day.urineSG.map { MeasureFormat.urineSG($0, separator: sep) } ?? "–")</td>\
                <td class="num">\(f(day.lowestLabSodium, 1))</td><td>\(day.morningCheckComplete ? "✓" : "–") / \(day.eveningCheckComplete ? "✓" : "–")</td></tr>
                """
        }
        return ConsoleLayout.scrolling("""
            <table id="day-table"><thead><tr><th scope="col">\(t.s("Date", "Datum"))</th><th scope="col" class="num">\(t.pod)</th>
            <th scope="col">\(t.level)</th><th scope="col">\(t.s("Reasons", "Gründe"))</th>
            <th scope="col" class="num">\(t.s("Weight morning kg", "Gewicht morgens kg"))</th><th scope="col" class="num">\(t.s("Weight evening kg", "Gewicht abends kg"))</th>
            <th scope="col" class="num">\(t.s("Fluid ml", "Trinkmenge ml"))</th><th scope="col" class="num">\(t.s("Urine SG", "Urin-SG"))</th>
            <th scope="col" class="num">\(t.s("Lab Na", "Labor-Na"))</th><th scope="col">\(t.s("Checks morning / evening", "Checks morgens / abends"))</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """, labelledBy: "days")
    }
}
