import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// One patient's row on the ward board: the light, why, since when, how far it is handled, the
/// day after surgery in words, and what the board showed before (risk, last submission,
/// missing checks, open alerts, status).
struct BoardRow {
    let layout: ConsoleLayout
    let wording: ReasonWording
    let row: WardBoard.Row
    /// The board's instant (epoch seconds), for the submission's age.
    let at: Double
    /// The patient's site, when the board has a site column (`.some(nil)`: a site not found).
    var site: Site?? = nil

    var t: ConsoleText { layout.t }

    /// At most two reasons in words (the code in a `title`), then "+N more".
    var why: HTML {
        let (shown, more) = row.why()
        guard !shown.isEmpty else { return "–" }
        let items: [HTML] = shown.map { r in "<li title=\"\(r.code)\" data-code=\"\(r.code)\">\(wording.sentence(r))</li>" }
        let rest: HTML = more > 0 ? "<li class=\"muted\">\(t.s("+\(more) more", "+\(more) weitere"))</li>" : HTML()
        return "<ul class=\"reasons\">\(items)\(rest)</ul>"
    }

    /// "since 4 Dec (3 days)" / "seit 4.12.2026 (3 Tage)"; the count may go to a second line,
    /// so the German board's last column stays on a 1,280 px screen.
    var since: HTML {
        guard let since = row.since, let days = row.sinceDays else { return "–" }
        return "<span class=\"nowrap\">\(t.s("since", "seit")) \(t.day(since))</span> <span class=\"nowrap\">(\(t.vocabulary.days(days)))</span>"
    }

    /// The handling state in words, with who and when.
    var handling: HTML {
        guard let state = row.handling, let alert = row.handlingAlert else { return "–" }
        func by(_ actor: String, at ms: Int64) -> String {
            t.s("by \(Principal.displayName(ofActor: actor)), \(t.time(ms, zone: row.zone))",
                "von \(Principal.displayName(ofActor: actor)), \(t.time(ms, zone: row.zone))")
        }
        func by(_ tr: AlertView.Transition) -> String { by(tr.by, at: tr.at) }
        let word: HTML = "<strong class=\"handling handling-\(state.rawValue)\">\(t.handling(state))</strong>"
        switch state {
        case .new:
            return "<span class=\"flag\">\(word)</span>"
        case .newDataSinceAcknowledged:
            let ack: HTML = alert.acknowledged.map { "<br>\(t.s("acknowledged", "bestätigt")) \(by($0))" } ?? HTML()
            return "<span class=\"flag\">\(word)</span>\(ack)"
        case .acknowledged:
            return alert.acknowledged.map { "\(word) \(by($0))" } ?? word
        case .contacted:
            guard let last = alert.contacts.last else { return word }
            return "\(word): \(t.vocabulary.contactOutcome(last.outcome)), \(by(last.by, at: last.at))"
        case .resolved:
            guard let resolved = alert.resolved else { return word }
            let note: HTML = resolved.note.map { "<br><q>\($0)</q>" } ?? HTML()
            return "\(word) \(by(resolved))\(note)"
        }
    }

    /// The site's code (short, so the German board still fits 1,280 px), its name as the title.
    var siteCell: HTML {
        guard let site else { return HTML() }
        guard let site else { return "<td class=\"site\">–</td>" }
        return "<td class=\"site\"><abbr title=\"\(site.name)\">\(site.code)</abbr></td>"
    }

    var html: HTML {
        let r = row
        let last = r.lastSubmissionAt.map { t.age(seconds: at - Double($0) / 1000) } ?? t.never
        let missing = r.missingChecks.isEmpty ? t.none : r.missingChecks.map(t.missing).joined(separator: ", ")
        var status: HTML = r.status == .activationOverdue ? "<span class=\"flag\">\(t.status(r.status))</span>" : "\(t.status(r.status))"
        if r.noReminderChannel {
            status = "\(status)<br><span class=\"flag\" data-flag=\"no-reminder-channel\">\(t.s("no reminder channel", "kein Erinnerungs\u{00AD}kanal"))</span>"
        }
        return """
            <tr class="row-\(r.level?.rawValue ?? "none")" data-study-id="\(r.patient.studyId)" data-level="\(r.level?.rawValue ?? "none")" \
            data-handling="\(r.handling?.rawValue ?? "")">\
            <th scope="row">\(ConsoleLayout.patientLink(r.patient.studyId))</th>\(siteCell)<td>\(layout.badge(r.level))</td><td>\(why)</td><td>\(since)</td>\
            <td>\(handling)</td><td class="nowrap">\(t.s("day \(r.pod)", "Tag \(r.pod)"))</td>\
            <td>\(t.riskWord(r.riskClass))</td><td>\(last)</td>\
            <td\(r.missingChecks.isEmpty ? HTML() : " class=\"flag\"")>\(missing)</td><td class="num">\(r.openAlerts)</td><td>\(status)</td></tr>
            """
    }
}
