import Charts
import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// Form errors to show next to their fields: by form (`lab`, `ack-7`, `contact-7`, `resolve-7`) and field.
struct FormErrors: Sendable {
    var messages: [String: [String: String]] = [:]
    /// What was typed, to put back into the re-shown form.
    var values: [String: [String: String]] = [:]

    func message(_ form: String, _ field: String) -> String? { messages[form]?[field] }
    func value(_ form: String, _ field: String) -> String { values[form]?[field] ?? "" }
    var isEmpty: Bool { messages.isEmpty }
}

/// Alerts as a table with their acknowledge, contact and resolve forms (for roles that write); used by
/// the inbox and the patient page, so both show and act on an alert the same way.
struct AlertTable {
    let layout: ConsoleLayout
    let zone: (String) -> ZoneRules
    /// Where the forms return to (`inbox` or `patient`).
    let back: String
    let errors: FormErrors
    /// The facts of the rules in force its reasons and kinds are worded with (`ReasonWording`).
    let facts: ReasonWording.Facts
    /// On the inbox: its filters and page, which the forms carry back (`InboxFilter.formField`).
    var inbox: InboxFilter? = nil

    /// The hidden fields that say where a form's answer returns to.
    var backFields: HTML { "<input type=\"hidden\" name=\"back\" value=\"\(back)\">\(inbox?.formField ?? HTML())" }

    var t: ConsoleText { layout.t }

    func render(_ alerts: [AlertView], showPatient: Bool) -> HTML {
        guard !alerts.isEmpty else { return "<p>\(t.s("No alerts.", "Keine Alarme."))</p>" }
        let patientHeader: HTML = showPatient ? "<th scope=\"col\">\(t.studyId)</th>" : HTML()
        let rows = alerts.map { row($0, showPatient: showPatient) }
        // At a phone's width the ten columns scroll inside their own box, not the page (as the board).
        return ConsoleLayout.scrolling("""
            <table class="alerts" ><thead><tr><th scope="col">#</th>\(patientHeader)<th scope="col">\(t.level)</th>
            <th scope="col">\(t.s("Date (POD)", "Datum (POD)"))</th><th scope="col">\(t.s("Kind", "Art"))</th>
            <th scope="col">\(t.s("Reasons", "Gründe"))</th><th scope="col">\(t.s("State", "Stand"))</th>
            <th scope="col">\(t.s("Opened", "Geöffnet"))</th><th scope="col">\(t.s("Acknowledged", "Bestätigt"))</th>
            <th scope="col">\(t.s("Resolved", "Erledigt"))</th></tr></thead><tbody>\(rows)</tbody></table>
            """, labelledBy: "alerts")
    }

    private func row(_ a: AlertView, showPatient: Bool) -> HTML {
        let z = zone(a.studyId)
        let patient: HTML = showPatient ? "<td>\(ConsoleLayout.patientLink(a.studyId))</td>" : HTML()
        let acted: (AlertView.Transition?) -> HTML = { tr in
            guard let tr else { return "–" }
            let note: HTML = tr.note.map { "<br><span class=\"muted\">\($0)</span>" } ?? HTML()
            return "\(t.time(tr.at, zone: z))<br>\(Principal.displayName(ofActor: tr.by))\(note)"
        }
        var resolved = acted(a.resolved)
        if let na = a.resolveSodium {
            resolved += "<br>Na \(ChartNumber.format(na, decimals: 1, trimZeros: true, separator: t.language == .de ? "," : ".")) \(ClinicalUnits(language: t.language).sodium)"
        }
        let forms = layout.session.map { s in s.role.canWrite && a.state != .resolved ? actionForms(a, s) : HTML() } ?? HTML()
        return """
            <tr id="alert-\(a.id)" data-alert-id="\(a.id)" data-state="\(a.state.rawValue)"><td>\(a.id)</td>\(patient)\
            <td>\(layout.badge(a.level))</td><td>\(t.date(a.date)) (\(a.pod))</td>\
            <td>\(t.vocabulary.alertKind(a.kind, noDataDays: facts.noDataDays))</td>\
            <td>\(ReasonText.list(a.reasons, ReasonWording(t.language, facts: facts)))</td><td>\(t.alertState(a.state))</td>\
            <td>\(t.time(a.openedAt, zone: z))</td>\
            <td>\(acted(a.acknowledged))\(history(a, zone: z))\(ContactForm(layout: layout, errors: errors).attempts(a, zone: z))</td>\
            <td>\(resolved)\(forms)</td></tr>
            """
    }

    /// Whether a worsened alert needs acknowledging again, and the acknowledgements its worsening
    /// superseded (they stay in the history; docs/product.md, "Alerts").
    func history(_ a: AlertView, zone z: ZoneRules) -> HTML {
        var out = HTML()
        if a.needsAcknowledgingAgain, let worsened = a.worsenedAt {
            out += "<br><strong class=\"reack\">\(t.vocabulary.needsAcknowledgingAgain(worsenedAt: t.time(worsened, zone: z)))</strong>"
        }
        for earlier in a.earlierAcknowledgements {
            let text = t.vocabulary.acknowledgedBeforeWorsening(earlier.level, at: t.time(earlier.acknowledged.at, zone: z),
                                                                by: Principal.displayName(ofActor: earlier.acknowledged.by))
            let note: HTML = earlier.acknowledged.note.map { " (\($0))" } ?? HTML()
            out += "<br><span class=\"muted earlier-ack\">\(text)\(note)</span>"
        }
        return out
    }

    private func actionForms(_ a: AlertView, _ s: WebSession) -> HTML {
        let ackForm = a.state == .open ? acknowledgeForm(a, s) : HTML()
        return "\(ackForm)\(ContactForm(layout: layout, errors: errors).rowForm(a, back: backFields))\(resolveForm(a, s))"
    }

    /// Acknowledging with an optional note (`label`: the button's words).
    func acknowledgeForm(_ a: AlertView, _ s: WebSession, label: String? = nil) -> HTML {
        let ack = "ack-\(a.id)"
        return """
            <form method="post" action="/console/alerts/\(a.id)/acknowledge" class="inline">\(ConsoleLayout.csrf(s))\(backFields)\
            <div><label for="\(ack)-note">\(t.s("Note (optional)", "Notiz (optional)"))</label>\
            <input type="text" id="\(ack)-note" name="note" maxlength="1000" value="\(errors.value(ack, "note"))">\
            \(fieldError(ack, "note"))</div><button type="submit">\(label ?? t.s("Acknowledge", "Bestätigen"))</button></form>
            """
    }

    /// Resolving with a note and, if measured, the sodium.
    func resolveForm(_ a: AlertView, _ s: WebSession) -> HTML {
        let res = "resolve-\(a.id)"
        return """
            <form method="post" action="/console/alerts/\(a.id)/resolve" class="inline">\(ConsoleLayout.csrf(s))\(backFields)\
            <div><label for="\(res)-note">\(t.s("Resolution note", "Notiz zur Erledigung"))</label>\
            <input type="text" id="\(res)-note" name="note" maxlength="1000" required value="\(errors.value(res, "note"))"\
            \(errors.message(res, "note") != nil ? " aria-invalid=\"true\" aria-describedby=\"\(res)-note-error\"" as HTML : HTML())>\
            \(fieldError(res, "note"))</div>\
            <div><label for="\(res)-sodium">\(t.s("Sodium mmol/L (optional)", "Natrium mmol/l (optional)"))</label>\
            <input type="text" inputmode="decimal" id="\(res)-sodium" name="sodium" value="\(errors.value(res, "sodium"))"\
            \(errors.message(res, "sodium") != nil ? " aria-invalid=\"true\" aria-describedby=\"\(res)-sodium-error\"" as HTML : HTML())>\
            \(fieldError(res, "sodium"))</div><button type="submit">\(t.s("Resolve", "Erledigen"))</button></form>
            """
    }

    private func fieldError(_ form: String, _ field: String) -> HTML {
        guard let m = errors.message(form, field) else { return HTML() }
        return "<p class=\"error\" id=\"\(form)-\(field)-error\">\(m)</p>"
    }
}

/// Reasons as people read them, one sentence each in clinical words (`ReasonWording`), with the
/// rule's code as the item's title and in a `data-code` attribute for data people.
enum ReasonText {
    static func list(_ reasons: [StoredReason], _ wording: ReasonWording) -> HTML {
        guard !reasons.isEmpty else { return "–" }
        let items: [HTML] = reasons.map { r in
            "<li title=\"\(r.code)\" data-code=\"\(r.code)\" data-level=\"\(r.level.rawValue)\">\(wording.sentence(r))</li>"
        }
        return "<ul class=\"reasons\">\(items)</ul>"
    }
}
