import Charts
import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// `/console/proposals`: imported values waiting for a nurse, newest first, a page at a time
/// with how many wait in all and a link to the older ones (an import can propose thousands), each
/// with the value it would replace and the value stored now side by side; a conflict (the patient
/// entered a value since) is marked, and confirming it needs the override box ticked. Viewers see
/// no forms.
struct ProposalsPage {
    let layout: ConsoleLayout
    let proposals: [ProposalView]
    /// How many proposals are waiting in all (on every page).
    var total = 0
    /// The `before` of the next page when older proposals wait.
    var olderBefore: Int64? = nil
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
        return layout.page(title, notice + count + header + proposals.map(row).joined() + "</tbody></table>" + older)
    }

    /// How many wait in all, and how many of them this page shows when it is not all.
    private var count: HTML {
        var text = total == 1 ? t.s("1 proposal is waiting.", "1 Vorschlag ist offen.")
            : t.s("\(total) proposals are waiting, newest first.", "\(total) Vorschläge sind offen, die neuesten zuerst.")
        if proposals.count < total {
            text += " " + t.s("This page shows \(proposals.count) of them.", "Diese Seite zeigt \(proposals.count) davon.")
        }
        return "<p id=\"proposal-count\">\(text)</p>"
    }

    private var older: HTML {
        olderBefore.map { id in
            "<p><a href=\"/console/proposals?before=\(String(id))\">\(t.s("Older proposals", "Ältere Vorschläge"))</a></p>"
        } ?? HTML()
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
            <td>\(t.date(p.date))</td><td>\(proposed)</td><td>\(number(p.replaces))</td><td>\(now)</td><td>\(forms)</td></tr>
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
