import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// The console's page frame: head, navigation (the sync page for admins only), who is signed
/// in with the sign-out form, the language switch, the disclaimer.
struct ConsoleLayout {
    let request: WebRequest
    let session: WebSession?

    var t: ConsoleText { ConsoleText(request.language) }

    /// `documentTitle`: the browser tab's title when it says more than the heading (the board's
    /// counts); `head`: extra elements for `<head>` (the board's refresh).
    func page(_ title: String, _ content: HTML, documentTitle: String? = nil, head: HTML = HTML()) -> HTML {
        let lang = request.language.rawValue
        return """
            <!DOCTYPE html>
            <html lang="\(lang)"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(documentTitle ?? title) · \(t.product)</title><link rel="stylesheet" href="\(ConsoleStylesheet.path)">\(head)</head>
            <body><a class="skip" href="#main">\(t.skipToContent)</a>
            <header>\(navigation())<div class="who">\(who())\(languageSwitch())</div></header>
            <main id="main"><h1>\(title)</h1>
            \(content)
            </main>
            <footer><p>\(t.disclaimer)</p></footer>
            </body></html>
            """
    }

    private func navigation() -> HTML {
        guard let session else { return "<nav aria-label=\"HyponaTrack\"><strong>\(t.product)</strong></nav>" }
        var links: [HTML] = ["<a href=\"/console/\">\(t.board)</a>", "<a href=\"/console/alerts\">\(t.alerts)</a>",
                             "<a href=\"/console/statistics\">\(t.statistics)</a>",
                             "<a href=\"/console/outcomes\">\(t.s("Outcomes", "Ergebnisse"))</a>",
                             "<a href=\"/console/proposals\">\(t.s("Imports", "Importe"))</a>"]
        if session.role.canAdmin { links.append("<a href=\"/console/sync\">\(t.sync)</a>") }
        // Spaces between the links: a line break may fall there on a phone.
        return "<nav aria-label=\"\(t.s("Console", "Konsole"))\">\(links.joined(separator: " "))</nav>"
    }

    private func who() -> HTML {
        guard let session else { return HTML() }
        return """
            <span>\(t.signedInAs) <strong>\(session.name)</strong> (<span title="\(session.role.rawValue)">\(Vocabulary(language: request.language).role(session.role))</span>)</span>
            <form method="post" action="/console/logout">\(Self.csrf(session))<button type="submit" class="secondary">\(t.signOut)</button></form>
            """
    }

    private func languageSwitch() -> HTML {
        let other: Language = request.language == .de ? .en : .de
        // The single sign-on's pages go back to the sign-in page: their query holds the provider's code.
        let back = request.http.rawPath.hasPrefix("/console/oidc/") ? "/console/login"
            : request.http.rawPath + (request.http.rawQuery.map { "?" + $0 } ?? "")
        let href = "/console/language?to=\(other.rawValue)&back=\(URLComponentEncoding.queryValue(back))"
        return "<a href=\"\(href)\" lang=\"\(other.rawValue)\" hreflang=\"\(other.rawValue)\">\(t.languageSwitch)</a>"
    }

    /// The hidden CSRF field every state-changing form carries.
    static func csrf(_ session: WebSession) -> HTML {
        CSRFField.html(session.csrfToken)
    }

    /// The level as a word in a coloured badge (colour is never the only carrier).
    func badge(_ level: Level?) -> HTML {
        "<span class=\"level level-\(level?.rawValue ?? "none")\">\(t.levelWord(level))</span>"
    }

    /// A wide table in a box that scrolls sideways on its own, so a phone's page never does; the
    /// box is a named, keyboard-reachable region (axe: scrollable-region-focusable).
    static func scrolling(_ table: HTML, labelledBy id: String) -> HTML {
        "<div class=\"table-scroll\" role=\"region\" aria-labelledby=\"\(id)\" tabindex=\"0\">\(table)</div>"
    }

    /// A link to a patient's page (the study ID percent-encoded in the path, escaped in the attribute).
    static func patientLink(_ studyId: String) -> HTML {
        "<a href=\"/console/patients/\(URLComponentEncoding.segment(studyId))\">\(studyId)</a>"
    }

    /// A time in the given zone as `YYYY-MM-DD HH:MM`.
    static func time(_ ms: Int64?, zone: ZoneRules) -> String {
        guard let ms else { return "–" }
        let seconds = Double(ms) / 1000
        let local = Int64(((seconds + Double(zone.offset(atEpochSeconds: seconds))) / 60).rounded(.down))
        let minuteOfDay = Int(((local % 1440) + 1440) % 1440)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(zone.localDate(atEpochSeconds: seconds)) \(two(minuteOfDay / 60)):\(two(minuteOfDay % 60))"
    }
}
