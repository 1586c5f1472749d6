import Charts
import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// One compact row of the inbox (docs/product.md, "The inbox"): level, patient, since, why (at
/// most two reasons in words, "+N more"), handling state, a small acknowledge button; the notes and
/// the forms (acknowledge with a note, log a contact, resolve) in the row's folded `<details>`,
/// open when one of its forms was refused. A viewer sees the notes and no form.
struct InboxRow {
    let layout: ConsoleLayout
    let zone: (String) -> ZoneRules
    let errors: FormErrors
    let facts: ReasonWording.Facts
    /// The inbox's filters and page: every form of the row carries them back.
    var filter = InboxFilter()

    static let shownReasons = 2

    var t: ConsoleText { layout.t }
    private var table: AlertTable { AlertTable(layout: layout, zone: zone, back: "inbox", errors: errors, facts: facts, inbox: filter) }
    private var writer: WebSession? { layout.session.flatMap { $0.role.canWrite ? $0 : nil } }

    func header() -> HTML {
        """
        <thead><tr><th scope="col">\(t.level)</th><th scope="col">\(t.s("Patient", "Patient"))</th>\
        <th scope="col">\(t.s("Since", "Seit"))</th><th scope="col">\(t.s("Why", "Warum"))</th>\
        <th scope="col">\(t.s("Handling", "Bearbeitung"))</th>\
        <th scope="col">\(writer == nil ? t.s("Notes", "Notizen") : t.s("Actions and notes", "Aktionen und Notizen"))</th></tr></thead>
        """
    }

    func render(_ a: AlertView) -> HTML {
        let z = zone(a.studyId)
        return """
            <tr id="alert-\(a.id)" data-alert-id="\(a.id)" data-state="\(a.state.rawValue)" data-level="\(a.level.rawValue)" class="row-\(a.level.rawValue)">\
            <td>\(layout.badge(a.level))</td>\
            <td class="patient">\(ConsoleLayout.patientLink(a.studyId)) <span class="muted">#\(a.id)</span></td>\
            <td class="since">\(since(a))</td><td class="why">\(why(a))</td><td class="handling">\(handling(a, z))</td>\
            <td class="act">\(actions(a, z))</td></tr>
            """
    }

    /// The first day, its POD and how many days the alert covers.
    private func since(_ a: AlertView) -> HTML {
        let days = max(1, a.days.count)
        return "\(t.date(a.date))<br><span class=\"muted\">\(t.pod) \(a.pod) · \(t.vocabulary.days(days))</span>"
    }

    /// The highest reasons first, at most two, as sentences (their codes in `title`); the kind when
    /// there are none (a missing check-in).
    private func why(_ a: AlertView) -> HTML {
        let wording = ReasonWording(t.language, facts: facts)
        let sorted = a.reasons.enumerated().sorted { x, y in
            x.element.level != y.element.level ? x.element.level > y.element.level : x.offset < y.offset
        }.map(\.element)
        guard !sorted.isEmpty else { return HTML(text: t.vocabulary.alertKind(a.kind, noDataDays: facts.noDataDays)) }
        let shown: [HTML] = sorted.prefix(Self.shownReasons).map { r in
            "<span class=\"reason\" title=\"\(r.code)\" data-code=\"\(r.code)\">\(wording.sentence(r))</span>"
        }
        let more = sorted.count - Self.shownReasons
        let rest: HTML = more > 0 ? " <span class=\"more\">\(t.s("+\(more) more", "+\(more) weitere"))</span>" : HTML()
        return "\(shown.joined(separator: "<br>"))\(rest)"
    }

    /// New / acknowledged by whom when / resolved by whom; the last contact; new data since acknowledged.
    private func handling(_ a: AlertView, _ z: ZoneRules) -> HTML {
        func byWhen(_ tr: AlertView.Transition) -> String {
            "\(Principal.displayName(ofActor: tr.by)), \(t.time(tr.at, zone: z))"
        }
        var lines: [HTML] = []
        switch a.state {
        case .resolved:
            lines.append("<strong>\(t.s("Resolved", "Erledigt"))</strong> \(a.resolved.map(byWhen) ?? "")")
        case .acknowledged:
            lines.append("<strong>\(t.s("Acknowledged", "Bestätigt"))</strong> \(a.acknowledged.map(byWhen) ?? "")")
        case .open where a.needsAcknowledgingAgain:
            lines.append("<strong class=\"reack\">\(t.s("Worsened: acknowledge again", "Verschlechtert: erneut bestätigen"))</strong>")
        case .open:
            lines.append("<strong class=\"new\">\(t.s("New", "Neu"))</strong>")
        }
        if a.state != .resolved, let last = a.contacts.last {
            lines.append("\(t.s("Contacted", "Kontaktiert")): <span title=\"\(last.outcome.rawValue)\">\(t.vocabulary.contactOutcome(last.outcome))</span>")
        }
        if a.state == .acknowledged, a.newDataAt != nil {
            lines.append("<strong class=\"flag\">\(t.s("New data since acknowledged", "Neue Daten seit Bestätigung"))</strong>")
        }
        return lines.joined(separator: "<br>")
    }

    /// The one-click acknowledge and the folded notes and forms.
    private func actions(_ a: AlertView, _ z: ZoneRules) -> HTML {
        var quick = HTML()
        var forms = HTML()
        if let s = writer, a.state != .resolved {
            if a.state == .open {
                quick = """
                    <form method="post" action="/console/alerts/\(a.id)/acknowledge" class="quick">\(ConsoleLayout.csrf(s))\
                    \(table.backFields)<button type="submit" class="small" \
                    aria-label="\(t.s("Acknowledge alert \(a.id)", "Alarm \(a.id) bestätigen"))">\(t.s("Acknowledge", "Bestätigen"))</button></form>
                    """
                forms += table.acknowledgeForm(a, s, label: t.s("Acknowledge with note", "Mit Notiz bestätigen"))
            }
            forms += "<h3>\(t.s("Log contact", "Kontakt erfassen"))</h3>"
            forms += ContactForm(layout: layout, errors: errors).rowForm(a, back: table.backFields, folded: false)
            forms += "<h3>\(t.s("Resolve", "Erledigen"))</h3>"
            forms += table.resolveForm(a, s)
        }
        let refused = ["ack-\(a.id)", "resolve-\(a.id)", ContactForm.formName(alertRow: a.id)].contains { errors.messages[$0] != nil }
        let summary = writer != nil && a.state != .resolved ? t.s("Notes, contact, resolve", "Notizen, Kontakt, Erledigen") : t.s("Notes", "Notizen")
        return """
            \(quick)<details class="more"\(refused ? " open" : "")><summary>\(summary)<span class="visually-hidden"> (\(t.s("alert", "Alarm")) \(a.id))</span></summary>\
            <div class="more-body">\(notes(a, z))\(forms)</div></details>
            """
    }

    /// Everything the row leaves out: the kind, every reason, the days, the notes, the contacts.
    private func notes(_ a: AlertView, _ z: ZoneRules) -> HTML {
        var out: HTML = "<p>\(t.vocabulary.alertKind(a.kind, noDataDays: facts.noDataDays))</p>"
        out += ReasonText.list(a.reasons, ReasonWording(t.language, facts: facts))
        if a.days.count > 1 {
            let days: [HTML] = a.days.map { d in
                "<li>\(t.date(d.date)) (\(t.pod) \(d.pod)): \(t.vocabulary.level(d.level))</li>"
            }
            out += "<ul class=\"days\">\(days)</ul>"
        }
        func line(_ label: String, _ tr: AlertView.Transition?) -> HTML {
            guard let tr else { return HTML() }
            let when = t.time(tr.at, zone: z)
            return "<p>\(label): \(when), \(Principal.displayName(ofActor: tr.by))\(tr.note.map { " – \($0)" } ?? "")</p>"
        }
        out += "<p>\(t.s("Opened", "Geöffnet")): \(t.time(a.openedAt, zone: z))</p>"
        out += line(t.s("Acknowledged", "Bestätigt"), a.acknowledged)
        out += table.history(a, zone: z)
        for c in a.contacts {
            let when = t.time(c.at, zone: z)
            out += "<p class=\"contact-note\">\(t.s("Contact", "Kontakt")): \(t.vocabulary.contactOutcome(c.outcome)), \(when), \(Principal.displayName(ofActor: c.by))\(c.note.map { " – \($0)" } ?? "")</p>"
        }
        out += line(t.s("Resolved", "Erledigt"), a.resolved)
        if let na = a.resolveSodium {
            out += "<p>Na \(ChartNumber.format(na, decimals: 1, trimZeros: true, separator: t.language == .de ? "," : ".")) \(ClinicalUnits(language: t.language).sodium)</p>"
        }
        if let merged = a.mergedInto { out += "<p>\(t.s("Merged into alert", "Zusammengeführt in Alarm")) #\(merged)</p>" }
        return out
    }
}
