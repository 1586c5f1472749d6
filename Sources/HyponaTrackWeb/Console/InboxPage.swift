import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// `/console/alerts`: unresolved alerts, red before yellow, oldest first within a level, with
/// acknowledge and resolve (every unresolved alert, never cut short); `?all=1` adds the resolved
/// ones, the newest 500 alerts a page with a link to the older ones (`before`).
struct InboxPage {
    let layout: ConsoleLayout
    let alerts: [AlertView]
    let all: Bool
    /// With `all`: the `before` of the next page when older alerts exist.
    var olderBefore: Int64? = nil
    let zone: (String) -> ZoneRules
    /// The facts of the rules in force (`AlertTable`).
    let facts: ReasonWording.Facts
    var errors = FormErrors()

    var t: ConsoleText { layout.t }

    static func ordered(_ alerts: [AlertView]) -> [AlertView] {
        alerts.sorted { a, b in
            if (a.state == .resolved) != (b.state == .resolved) { return b.state == .resolved }
            if a.level != b.level { return a.level > b.level }
            return a.openedAt < b.openedAt
        }
    }

    func render() -> HTML {
        let table = AlertTable(layout: layout, zone: zone, back: "inbox", errors: errors, facts: facts)
        let toggle: HTML = all ? "<p><a href=\"/console/alerts\">\(t.s("Show unresolved alerts only", "Nur unerledigte Alarme zeigen"))</a></p>"
            : "<p><a href=\"/console/alerts?all=1\">\(t.s("Show resolved alerts too", "Auch erledigte Alarme zeigen"))</a></p>"
        let older: HTML = olderBefore.map { id in
            "<p><a href=\"/console/alerts?all=1&amp;before=\(String(id))\">\(t.s("Older alerts", "Ältere Alarme"))</a></p>"
        } ?? HTML()
        return layout.page(t.alerts, table.render(Self.ordered(alerts), showPatient: true) + older + toggle)
    }
}

/// `/console/sign-in`: name and password; the message of a refused attempt next to the form.
struct SignInPage {
    let layout: ConsoleLayout
    let next: String
    /// The pre-session CSRF token (`SignInFormToken`).
    let formToken: String?
    var name = ""
    var message: String?
    var field: String?

    var t: ConsoleText { layout.t }

    func render() -> HTML {
        let error: HTML = message.map { "<p class=\"error\" id=\"signin-error\" role=\"alert\">\($0)</p>" } ?? HTML()
        func described(_ f: String) -> HTML { field == f || (field == nil && message != nil) ? " aria-invalid=\"true\" aria-describedby=\"signin-error\"" : HTML() }
        return layout.page(t.signIn, """
            <form method="post" action="/console/login" class="login" id="signin">
            <input type="hidden" name="next" value="\(next)">\(CSRFField.html(formToken))
            <div class="field"><label for="name">\(t.name)</label>
            <input type="text" id="name" name="name" autocomplete="username" required maxlength="64" value="\(name)"\(described("name"))></div>
            <div class="field"><label for="password">\(t.password)</label>
            <input type="password" id="password" name="password" autocomplete="current-password" required maxlength="1024"\(described("password"))></div>
            \(error)<button type="submit">\(t.signIn)</button></form>
            """)
    }
}
