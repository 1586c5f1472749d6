import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// The contact log on the console (docs/product.md, "Contact log"): the form that logs a contact
/// attempt (on the patient's page, and compact in each alert's row of the inbox and the patient's
/// alert table) and the list of a patient's contacts. Outcomes are words in the page's language,
/// their codes in a `title` and `data-outcome`. A viewer sees the list and no form.
struct ContactForm {
    let layout: ConsoleLayout
    let errors: FormErrors

    var t: ConsoleText { layout.t }

    /// The form's name in `FormErrors`: `contact` on the patient's page, `contact-7` in alert 7's row.
    static func formName(alertRow: Int64?) -> String { alertRow.map { "contact-\($0)" } ?? "contact" }

    /// The patient page's form: the outcome, a note, and which of `alerts` (unresolved) it was about.
    func patientForm(studyId: String, alerts: [AlertView]) -> HTML {
        guard let session = layout.session, session.role.canWrite else { return HTML() }
        let f = Self.formName(alertRow: nil)
        let chosen = errors.value(f, "alertId")
        let options: [HTML] = alerts.filter { $0.state != .resolved }.map { a in
            let label = "#\(a.id) \(t.date(a.date)) \(t.vocabulary.level(a.level)) (\(t.alertState(a.state)))"
            return "<option value=\"\(String(a.id))\"\(chosen == String(a.id) ? " selected" : "")>\(label)</option>"
        }
        // Without an unresolved alert there is nothing to choose; a refused alert (a stale form) is still said.
        let alertField: HTML = options.isEmpty ? error(f, "alertId") : """
            <div class="field"><label for="\(f)-alertId">\(t.s("About alert (optional; an open alert is acknowledged)", "Zu Alarm (optional; ein offener Alarm wird damit bestätigt)"))</label>
            <select id="\(f)-alertId" name="alertId"\(invalid(f, "alertId"))><option value="">\(t.s("no alert", "kein Alarm"))</option>\(options)</select>\(error(f, "alertId"))</div>
            """
        return """
            <form method="post" action="\(Self.action(studyId))" id="contact-form">\(ConsoleLayout.csrf(session))
            <input type="hidden" name="back" value="patient">
            \(outcomeField(f))\(alertField)
            <div class="field"><label for="\(f)-note">\(t.s("Note (optional)", "Notiz (optional)"))</label>
            <input type="text" id="\(f)-note" name="note" maxlength="1000" value="\(errors.value(f, "note"))"\(invalid(f, "note"))>\(error(f, "note"))</div>
            <button type="submit">\(t.s("Log contact", "Kontakt erfassen"))</button></form>
            """
    }

    /// The compact form in an alert's row (`back`: the hidden fields saying where it returns to,
    /// `AlertTable.backFields`), folded until opened (or open when it was refused); not `folded`
    /// inside the inbox's already folded part.
    func rowForm(_ a: AlertView, back: HTML, folded: Bool = true) -> HTML {
        guard let session = layout.session, session.role.canWrite, a.state != .resolved else { return HTML() }
        let f = Self.formName(alertRow: a.id)
        let refused = errors.messages[f] != nil
        let form: HTML = """
            <form method="post" action="\(Self.action(a.studyId))" class="inline">\(ConsoleLayout.csrf(session))\
            \(back)<input type="hidden" name="alertId" value="\(String(a.id))">\
            <input type="hidden" name="row" value="1">\(outcomeField(f))\
            <div><label for="\(f)-note">\(t.s("Note (optional)", "Notiz (optional)"))</label>\
            <input type="text" id="\(f)-note" name="note" maxlength="1000" value="\(errors.value(f, "note"))"\(invalid(f, "note"))>\
            \(error(f, "note"))</div><button type="submit">\(t.s("Log contact", "Kontakt erfassen"))</button></form>
            """
        guard folded else { return form }
        return "<details class=\"contact\"\(refused ? " open" : "")><summary>\(t.s("Log contact", "Kontakt erfassen"))</summary>\(form)</details>"
    }

    /// An alert's contact attempts in its row: how many, and the last one.
    func attempts(_ a: AlertView, zone: ZoneRules) -> HTML {
        guard let last = a.contacts.last else { return HTML() }
        let count = a.contacts.count == 1 ? t.s("1 contact attempt", "1 Kontaktversuch")
            : t.s("\(a.contacts.count) contact attempts", "\(a.contacts.count) Kontaktversuche")
        return """
            <br><span class="contacts" data-attempts="\(String(a.contacts.count))">\(count); \(t.s("last", "zuletzt")): \
            \(outcome(last.outcome)), \(t.time(last.at, zone: zone)), \(Principal.displayName(ofActor: last.by))</span>
            """
    }

    /// The patient's contacts, newest first.
    func list(_ contacts: [ContactRecord], zone: ZoneRules) -> HTML {
        guard !contacts.isEmpty else { return "<p>\(t.s("No contacts logged.", "Keine Kontakte erfasst."))</p>" }
        let rows: [HTML] = contacts.map { c in
            let alert: HTML = c.alertId.map { "<a href=\"#alert-\(String($0))\">#\(String($0))</a>" } ?? "–"
            return """
                <tr id="contact-\(String(c.id))" data-outcome="\(c.outcome.rawValue)"><td>\(t.time(c.at, zone: zone))</td>\
                <td>\(outcome(c.outcome))</td><td>\(alert)</td><td>\(Principal.displayName(ofActor: c.by))</td><td>\(c.note ?? "–")</td></tr>
                """
        }
        return """
            <table id="contact-list"><thead><tr><th scope="col">\(t.s("Time", "Zeit"))</th><th scope="col">\(t.s("Outcome", "Ergebnis"))</th>
            <th scope="col">\(t.s("Alert", "Alarm"))</th><th scope="col">\(t.s("Logged by", "Erfasst von"))</th>
            <th scope="col">\(t.s("Note", "Notiz"))</th></tr></thead><tbody>\(rows)</tbody></table>
            """
    }

    static func action(_ studyId: String) -> String { "/console/patients/\(URLComponentEncoding.segment(studyId))/contacts" }

    private func outcome(_ o: ContactOutcome) -> HTML { "<span title=\"\(o.rawValue)\">\(t.vocabulary.contactOutcome(o))</span>" }

    private func outcomeField(_ f: String) -> HTML {
        let chosen = errors.value(f, "outcome")
        let options: [HTML] = ContactOutcome.allCases.map { o in
            "<option value=\"\(o.rawValue)\"\(chosen == o.rawValue ? " selected" : "")>\(t.vocabulary.contactOutcome(o))</option>"
        }
        return """
            <div><label for="\(f)-outcome">\(t.s("Outcome", "Ergebnis"))</label>\
            <select id="\(f)-outcome" name="outcome" required\(invalid(f, "outcome"))><option value="">\(t.s("choose…", "bitte wählen…"))</option>\(options)</select>\
            \(error(f, "outcome"))</div>
            """
    }

    private func invalid(_ f: String, _ field: String) -> HTML {
        errors.message(f, field) != nil ? " aria-invalid=\"true\" aria-describedby=\"\(f)-\(field)-error\"" : HTML()
    }

    private func error(_ f: String, _ field: String) -> HTML {
        errors.message(f, field).map { "<p class=\"error\" id=\"\(f)-\(field)-error\">\($0)</p>" } ?? HTML()
    }
}
