import Charts
import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// A patient's outcomes on the console's patient page (docs/product.md, third round, O): the
/// list (staff-recorded and lab-derived, withdrawn ones marked) and, for nurses and admins, the
/// form that records one. Kinds are words in the page's language, their codes in `data-kind`.
struct OutcomeSection {
    let layout: ConsoleLayout
    let outcomes: [OutcomeRecord]
    let studyId: String
    let errors: FormErrors

    static let form = "outcome"
    var t: ConsoleText { layout.t }

    func render() -> HTML {
        "<h2 id=\"outcomes\">\(t.s("Outcomes", "Ereignisse"))</h2>\(list())\(formHTML())"
    }

    private func list() -> HTML {
        guard !outcomes.isEmpty else { return "<p>\(t.s("No outcomes recorded.", "Keine Ereignisse erfasst."))</p>" }
        let rows: [HTML] = outcomes.map { o in
            let sodium = t.number(o.sodium, decimals: 1, trimZeros: true)
            return """
                <tr id="outcome-\(String(o.id))" data-kind="\(o.kind.rawValue)" data-status="\(o.status.rawValue)"\
                \(o.status == .withdrawn ? " class=\"muted\"" : "")><td>\(t.date(o.date))</td><td class="num">\(String(o.pod))</td>\
                <td>\(t.vocabulary.outcomeKind(o.kind))</td><td class="num">\(sodium)</td>\
                <td>\(t.vocabulary.outcomeSource(o.source, status: o.status))</td><td>\(o.note ?? "–")</td></tr>
                """
        }
        return ConsoleLayout.scrolling("""
            <table id="outcome-list"><thead><tr><th scope="col">\(t.s("Date", "Datum"))</th><th scope="col" class="num">\(t.pod)</th>
            <th scope="col">\(t.s("Outcome", "Ereignis"))</th><th scope="col" class="num">\(t.s("Sodium mmol/L", "Natrium mmol/l"))</th>
            <th scope="col">\(t.s("Source", "Quelle"))</th><th scope="col">\(t.s("Note", "Notiz"))</th></tr></thead><tbody>\(rows)</tbody></table>
            """, labelledBy: "outcomes")
    }

    private func formHTML() -> HTML {
        guard let session = layout.session, session.role.canWrite else { return HTML() }
        let f = Self.form
        let chosen = errors.value(f, "kind")
        let options: [HTML] = OutcomeKind.allCases.map { k in
            "<option value=\"\(k.rawValue)\"\(chosen == k.rawValue ? " selected" : "")>\(t.vocabulary.outcomeKind(k))</option>"
        }
        return """
            <form method="post" action="\(Console.patientPath(studyId, "/outcomes"))" id="outcome-form">\(ConsoleLayout.csrf(session))
            <div class="field"><label for="\(f)-kind">\(t.s("Outcome", "Ereignis"))</label>
            <select id="\(f)-kind" name="kind" required\(invalid("kind"))><option value="">\(t.s("choose…", "bitte wählen…"))</option>\(options)</select>\(error("kind"))</div>
            <div class="field"><label for="\(f)-date">\(t.s("Date (the patient's local day)", "Datum (Ortszeit des Patienten)"))</label>
            <input type="date" id="\(f)-date" name="date" required value="\(errors.value(f, "date"))"\(invalid("date"))>\(error("date"))</div>
            <div class="field"><label for="\(f)-sodium">\(t.s("Sodium (mmol/L, optional)", "Natrium (mmol/l, optional)"))</label>
            <input type="text" inputmode="decimal" id="\(f)-sodium" name="sodium" value="\(errors.value(f, "sodium"))"\(invalid("sodium"))>\(error("sodium"))</div>
            <div class="field"><label for="\(f)-note">\(t.s("Note (optional, no names)", "Notiz (optional, keine Namen)"))</label>
            <input type="text" id="\(f)-note" name="note" maxlength="1000" value="\(errors.value(f, "note"))"\(invalid("note"))>\(error("note"))</div>
            <button type="submit">\(t.s("Record outcome", "Ereignis erfassen"))</button></form>
            """
    }

    private func invalid(_ field: String) -> HTML {
        errors.message(Self.form, field) != nil ? " aria-invalid=\"true\" aria-describedby=\"\(Self.form)-\(field)-error\"" : HTML()
    }

    private func error(_ field: String) -> HTML {
        errors.message(Self.form, field).map { "<p class=\"error\" id=\"\(Self.form)-\(field)-error\">\($0)</p>" } ?? HTML()
    }
}
