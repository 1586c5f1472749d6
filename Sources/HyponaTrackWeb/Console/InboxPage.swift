import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// `/console/alerts`: one compact row per alert (`InboxRow`; docs/product.md, "The inbox"), filtered
/// by level and handling state (`InboxFilter`), pages of 50. Unresolved alerts red before yellow,
/// oldest first within a level; lists with resolved ones newest first.
struct InboxPage {
    let layout: ConsoleLayout
    let filter: InboxFilter
    /// With a triage filter every matching alert (this page is cut here); otherwise the page.
    let alerts: [AlertView]
    /// Without a triage filter: whether older alerts exist beyond this page.
    var hasOlder = false
    let zone: (String) -> ZoneRules
    /// The facts of the rules in force (`ReasonWording`).
    let facts: ReasonWording.Facts
    var errors = FormErrors()
    /// The study's sites, for an all-sites member of a study with several (the site filter).
    var sites: [Int64: Site]? = nil

    var t: ConsoleText { layout.t }

    static func ordered(_ alerts: [AlertView]) -> [AlertView] {
        alerts.sorted { a, b in
            if (a.state == .resolved) != (b.state == .resolved) { return b.state == .resolved }
            if a.level != b.level { return a.level > b.level }
            return a.openedAt < b.openedAt
        }
    }

    func render() -> HTML {
        let shown: [AlertView], total: Int?, hasMore: Bool
        if filter.state.triage {
            let all = Self.ordered(alerts)
            shown = Array(all.dropFirst((filter.page - 1) * InboxFilter.pageSize).prefix(InboxFilter.pageSize))
            total = all.count
            hasMore = filter.page * InboxFilter.pageSize < all.count
        } else {
            (shown, total, hasMore) = (alerts, nil, hasOlder)
        }
        let row = InboxRow(layout: layout, zone: zone, errors: errors, facts: facts, filter: filter)
        let rows: [HTML] = shown.map(row.render)
        let table: HTML = shown.isEmpty ? "<p>\(t.s("No alerts.", "Keine Alarme."))</p>"
            : "<table class=\"alerts inbox\">\(row.header())<tbody>\(rows)</tbody></table>"
        let pager = filter.pager(t, shown: shown.count, total: total, hasMore: hasMore)
        return layout.page(t.alerts, filter.render(t, sites: sites) + table + pager)
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
    /// The code step after a right password (the member has a second factor): the ticket the
    /// password step issued, sent back with the code.
    var ticket: String?
    /// The provider's name for the "Sign in with …" link (nil: no single sign-on).
    var provider: String?
    /// Whether the password form is shown (`console.passwordSignIn`).
    var passwordForm = true

    var t: ConsoleText { layout.t }

    func render() -> HTML {
        if let ticket { return renderCodeStep(ticket) }
        let link: HTML = provider.map { name in
            "<p class=\"sso\"><a class=\"button\" id=\"sso\" href=\"/console/oidc/start?next=\(URLComponentEncoding.queryValue(next))\">\(t.s("Sign in with", "Anmelden mit")) \(name)</a></p>"
        } ?? HTML()
        guard passwordForm else {
            let error: HTML = message.map { "<p class=\"error\" id=\"signin-error\" role=\"alert\">\($0)</p>" } ?? HTML()
            return layout.page(t.signIn, link + error)
        }
        let error: HTML = message.map { "<p class=\"error\" id=\"signin-error\" role=\"alert\">\($0)</p>" } ?? HTML()
        func described(_ f: String) -> HTML { field == f || (field == nil && message != nil) ? " aria-invalid=\"true\" aria-describedby=\"signin-error\"" : HTML() }
        return layout.page(t.signIn, link + """
            <form method="post" action="/console/login" class="login" id="signin">
            <input type="hidden" name="next" value="\(next)">\(CSRFField.html(formToken))
            <div class="field"><label for="name">\(t.name)</label>
            <input type="text" id="name" name="name" autocomplete="username" required maxlength="64" value="\(name)"\(described("name"))></div>
            <div class="field"><label for="password">\(t.password)</label>
            <input type="password" id="password" name="password" autocomplete="current-password" required maxlength="1024"\(described("password"))></div>
            \(error)<button type="submit">\(t.signIn)</button></form>
            """)
    }

    /// The same form, second step: one field for the authenticator's code or a recovery code.
    func renderCodeStep(_ ticket: String) -> HTML {
        let error: HTML = message.map { "<p class=\"error\" id=\"signin-error\" role=\"alert\">\($0)</p>" } ?? HTML()
        let described: HTML = message != nil ? " aria-invalid=\"true\" aria-describedby=\"signin-error\"" : HTML()
        return layout.page(t.signIn, """
            <form method="post" action="/console/login" class="login" id="signin">
            <input type="hidden" name="next" value="\(next)">\(CSRFField.html(formToken))
            <input type="hidden" name="ticket" value="\(ticket)"><input type="hidden" name="name" value="\(name)">
            <p>\(t.s("Signing in as", "Anmeldung als")) <strong>\(name)</strong></p>
            <div class="field"><label for="code">\(t.s("Code from your authenticator app", "Code aus der Authenticator-App"))</label>
            <input type="text" id="code" name="code" autocomplete="one-time-code" inputmode="numeric" required maxlength="32" autofocus\(described)>
            <p class="hint">\(t.s("Lost your phone? Enter one of your recovery codes instead.",
                                  "Telefon verloren? Stattdessen einen der Wiederherstellungscodes eingeben."))</p></div>
            \(error)<button type="submit">\(t.signIn)</button></form>
            """)
    }
}
