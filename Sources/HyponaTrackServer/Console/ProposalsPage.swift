import Charts
import HTML
import HyponaTrackCore

/// `/console/proposals`: imported values waiting for a nurse, oldest first, each with the value
/// it would replace and the value stored now side by side; a conflict (the patient entered a
/// value since) is marked, and confirming it needs the override box ticked. Viewers see no forms.
struct ProposalsPage {
    let layout: ConsoleLayout
    let proposals: [ProposalView]
    var errors = FormErrors()

    var t: ConsoleText { layout.t }

    var title: String { t.s("Imported values to confirm", "Importierte Werte zur Bestätigung") }

    func render() -> HTML {
        guard !proposals.isEmpty else {
            return layout.page(title, notice + "<p>\(t.s("No proposals are waiting.", "Keine Vorschläge offen."))</p>")
        }
        let header: HTML = """
            <table><caption>\(title)</caption><thead><tr><th scope="col">ID</th><th scope="col">\(t.s("Patient", "Patient"))</th>\
            <th scope="col">\(t.s("Source", "Quelle"))</th><th scope="col">\(t.s("Field", "Feld"))</th>\
            <th scope="col">\(t.s("Date", "Datum"))</th><th scope="col">\(t.s("Proposed", "Vorschlag"))</th>\
            <th scope="col">\(t.s("Would replace", "Ersetzt"))</th><th scope="col">\(t.s("Stored now", "Jetzt gespeichert"))</th>\
            <th scope="col">\(t.s("Decision", "Entscheidung"))</th></tr></thead><tbody>
            """
        return layout.page(title, notice + header + proposals.map(row).joined() + "</tbody></table>")
    }

    /// A refusal for a proposal that is no longer listed (decided meanwhile, in another tab or by
    /// a colleague): its form is gone, so the message stands above the list.
    private var notice: HTML {
        let listed = Set(proposals.map { "\($0.proposal.id)" })
        let lines: [HTML] = errors.messages.keys.sorted().compactMap { form in
            guard let dash = form.firstIndex(of: "-"), case let id = String(form[form.index(after: dash)...]), !listed.contains(id),
                  let message = errors.messages[form]?.values.sorted().first else { return nil }
            let name = "\(t.s("Proposal", "Vorschlag")) \(id)"
            let named = message.hasPrefix(name + " ") ? message : "\(name): \(message)"
            return "<p class=\"error\" role=\"alert\">\(named)</p>"
        }
        return lines.joined()
    }

    func number(_ v: Double?) -> String {
        guard let v else { return "–" }
        return ChartNumber.format(v, decimals: 2, trimZeros: true, separator: t.language == .de ? "," : ".")
    }

    private func row(_ v: ProposalView) -> HTML {
        let p = v.proposal
        let proposed = p.value == nil ? t.s("delete (entered in error)", "löschen (Fehleintrag)") : number(p.value)
        let now: HTML = v.conflict
            ? "<strong class=\"error\">\(number(v.current))</strong><br>\(t.s("changed since the proposal", "seit dem Vorschlag geändert"))"
            : "\(number(v.current))"
        let forms = layout.session.map { s in s.role.canWrite ? decisionForms(v, s) : HTML() } ?? HTML()
        return """
            <tr id="proposal-\(p.id)" data-conflict="\(v.conflict ? "true" : "false")"><td>\(p.id)</td>\
            <td>\(ConsoleLayout.patientLink(p.studyId))</td><td>\(p.source.rawValue)</td><td>\(p.field.rawValue)</td>\
            <td>\(p.date.description)</td><td>\(proposed)</td><td>\(number(p.replaces))</td><td>\(now)</td><td>\(forms)</td></tr>
            """
    }

    private func decisionForms(_ v: ProposalView, _ s: WebSession) -> HTML {
        let id = v.proposal.id, confirm = "confirm-\(id)", reject = "reject-\(id)"
        let override: HTML = v.conflict ? """
            <div><input type="checkbox" id="\(confirm)-override" name="override" value="true">\
            <label for="\(confirm)-override">\(t.s("Replace the stored value anyway", "Gespeicherten Wert trotzdem ersetzen"))</label>\
            \(fieldError(confirm, "override"))</div>
            """ : HTML()
        return """
            <form method="post" action="/console/proposals/\(id)/confirm" class="inline">\(ConsoleLayout.csrf(s))\
            <div><label for="\(confirm)-note">\(t.s("Note (optional)", "Notiz (optional)"))</label>\
            <input type="text" id="\(confirm)-note" name="note" maxlength="1000" value="\(errors.value(confirm, "note"))">\
            \(fieldError(confirm, "note"))</div>\(override)<button type="submit">\(t.s("Confirm", "Bestätigen"))</button></form>\
            <form method="post" action="/console/proposals/\(id)/reject" class="inline">\(ConsoleLayout.csrf(s))\
            <div><label for="\(reject)-note">\(t.s("Note (optional)", "Notiz (optional)"))</label>\
            <input type="text" id="\(reject)-note" name="note" maxlength="1000" value="\(errors.value(reject, "note"))">\
            \(fieldError(reject, "note"))</div><button type="submit">\(t.s("Reject", "Ablehnen"))</button></form>
            """
    }

    private func fieldError(_ form: String, _ field: String) -> HTML {
        guard let m = errors.message(form, field) else { return HTML() }
        return "<p class=\"error\" id=\"\(form)-\(field)-error\" role=\"alert\">\(m)</p>"
    }
}
