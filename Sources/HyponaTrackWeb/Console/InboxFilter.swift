import HTML
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

/// The inbox's filters and page as GET query parameters (links, so they work without script and
/// can be bookmarked): `level` (`red`, `yellow`; none: both), `state` (`unresolved` the default,
/// `open` = new, `acknowledged`, `resolved`, `all`; the older `all=1` means `all`), `page` (from 1,
/// pages of 50), the older `before` (an alert number: only older alerts) and `site` (a site's code,
/// for all-sites members; the router narrows a GET's rows by it).
struct InboxFilter: Equatable {
    enum StateFilter: String, CaseIterable {
        case unresolved, open, acknowledged, resolved, all

        var states: Set<AlertState>? {
            switch self {
            case .unresolved: return [.open, .acknowledged]
            case .open: return [.open]
            case .acknowledged: return [.acknowledged]
            case .resolved: return [.resolved]
            case .all: return nil
            }
        }

        /// Unresolved alerts are listed in triage order (red first, oldest first) and never cut
        /// short by the service; lists with resolved ones newest first, a page at a time.
        var triage: Bool { self != .resolved && self != .all }
    }

    static let pageSize = 50
    static let levels: [Level] = [.red, .yellow]

    var level: Level? = nil
    var state: StateFilter = .unresolved
    var page = 1
    var before: Int64? = nil
    /// A site's code, or "" for every site the member reaches.
    var site = ""

    /// Reads the query; a malformed value is refused (400) naming it, never shown as the first page.
    init(_ query: (String) -> String?, language: Language) throws {
        func refuse(_ en: String, _ de: String) -> PageFailure { PageFailure(.badRequest, language.s(en, de)) }
        if let text = query("level"), !text.isEmpty, text != "all" {
            guard let l = Level(rawValue: text), Self.levels.contains(l) else {
                throw refuse("\"level\" is not red or yellow.", "\"level\" ist weder rot (red) noch gelb (yellow).")
            }
            level = l
        }
        if query("all") == "1" { state = .all }
        if let text = query("state"), !text.isEmpty {
            guard let s = StateFilter(rawValue: text) else {
                throw refuse("\"state\" is not a handling state.", "\"state\" ist kein Bearbeitungsstand.")
            }
            state = s
        }
        if let text = query("page") {
            guard let n = Int(text), n >= 1, n <= 100_000 else { throw refuse("\"page\" is not a page number.", "\"page\" ist keine Seitenzahl.") }
            page = n
        }
        if let text = query("site"), !text.isEmpty {
            guard SiteRules.isValidCode(text) else { throw refuse("\"site\" is not a site code.", "\"site\" ist kein Standortcode.") }
            site = text
        }
        if let text = query("before") {
            guard let id = Int64(text), id > 0 else { throw refuse("\"before\" is not an alert number.", "\"before\" ist keine Alarmnummer.") }
            before = id
        }
    }

    init(level: Level? = nil, state: StateFilter = .unresolved, page: Int = 1, site: String = "") {
        self.level = level
        self.state = state
        self.page = page
        self.site = site
    }

    /// What the service is asked: unresolved ones whole (paged here), others a page by offset.
    var query: AlertsQuery {
        let levels: Set<Level>? = level.map { [$0] }
        if state.triage { return AlertsQuery(openOnly: true, before: before, levels: levels, states: state.states) }
        return AlertsQuery(openOnly: false, before: before, limit: Self.pageSize, levels: levels, states: state.states,
                           offset: (page - 1) * Self.pageSize)
    }

    /// The filters as a query (defaults left out): `level=red&page=2`; every value is one of
    /// ours (a level, a state word, a number), so none needs escaping.
    var queryString: String {
        var items: [String] = []
        if let level { items.append("level=\(level.rawValue)") }
        if state != .unresolved { items.append("state=\(state.rawValue)") }
        if page > 1 { items.append("page=\(page)") }
        if let before { items.append("before=\(before)") }
        if !site.isEmpty { items.append("site=\(site)") }
        return items.joined(separator: "&")
    }

    /// The inbox's address with these filters.
    var href: String { "/console/alerts" + (queryString.isEmpty ? "" : "?" + queryString) }

    /// The form field that carries these filters through an acknowledge, contact or resolve
    /// form of the inbox, so the answer returns to the same filtered page (`returned`).
    static let formFieldName = "inbox"
    var formField: HTML { "<input type=\"hidden\" name=\"\(Self.formFieldName)\" value=\"\(queryString)\">" }

    /// The filters a posted inbox form carried (`formField`). Only the known parameters are read
    /// and checked as the inbox's own query is, and `href` writes them again, so the answer can
    /// only ever lead to the inbox; a missing or malformed value is the default inbox.
    static func returned(_ field: String?, language: Language) -> InboxFilter {
        guard let field, let query = try? HTTPQueryParameters(formURLEncoded: Array(field.utf8)),
              let filter = try? InboxFilter({ query[$0] }, language: language) else { return InboxFilter() }
        return filter
    }

    func with(level: Level?) -> InboxFilter { InboxFilter(level: level, state: state, site: site) }
    func with(state: StateFilter) -> InboxFilter { InboxFilter(level: level, state: state, site: site) }
    func with(site: String) -> InboxFilter { InboxFilter(level: level, state: state, site: site) }
    func with(page: Int) -> InboxFilter {
        var f = InboxFilter(level: level, state: state, page: page, site: site)
        f.before = before
        return f
    }

    // MARK: rendering

    func stateWord(_ s: StateFilter, _ t: ConsoleText) -> String {
        switch s {
        case .unresolved: return t.s("Unresolved", "Unerledigt")
        case .open: return t.s("New", "Neu")
        case .acknowledged: return t.s("Acknowledged", "Bestätigt")
        case .resolved: return t.s("Resolved", "Erledigt")
        case .all: return t.s("All", "Alle")
        }
    }

    /// Two rows of links (three with `sites`: all-sites members of a study with several), the
    /// chosen one marked `aria-current` (and bold, not by colour alone).
    func render(_ t: ConsoleText, sites: [Int64: Site]? = nil) -> HTML {
        func link(_ f: InboxFilter, _ label: String, current: Bool) -> HTML {
            current ? "<a href=\"\(f.href)\" aria-current=\"true\" class=\"current\">\(label)</a>" : "<a href=\"\(f.href)\">\(label)</a>"
        }
        let levels: [HTML] = [link(with(level: nil), t.s("All", "Alle"), current: level == nil)]
            + Self.levels.map { l in link(with(level: l), t.vocabulary.level(l), current: level == l) }
        let states: [HTML] = StateFilter.allCases.map { s in link(with(state: s), stateWord(s, t), current: state == s) }
        var siteRow = HTML()
        if let sites {
            let links: [HTML] = [link(with(site: ""), t.s("All", "Alle"), current: site.isEmpty)]
                + sites.values.sorted { $0.code < $1.code }.map { s in link(with(site: s.code), s.code, current: site == s.code) }
            siteRow = "<p id=\"inbox-sites\"><span class=\"filter-name\">\(t.s("Site", "Standort")):</span> \(links.joined(separator: " "))</p>"
        }
        return """
            <nav class="filters" aria-label="\(t.s("Filters", "Filter"))">\
            <p><span class="filter-name">\(t.level):</span> \(levels.joined(separator: " "))</p>\
            <p><span class="filter-name">\(t.s("Handling", "Bearbeitung")):</span> \(states.joined(separator: " "))</p>\(siteRow)</nav>
            """
    }

    /// "Alerts 51–100 of 130" and the previous and next page links.
    func pager(_ t: ConsoleText, shown: Int, total: Int?, hasMore: Bool) -> HTML {
        guard shown > 0 else { return HTML() }
        let first = (page - 1) * Self.pageSize + 1
        let last = first + shown - 1
        let range = total.map { t.s("Alerts \(first)–\(last) of \($0)", "Alarme \(first)–\(last) von \($0)") }
            ?? t.s("Alerts \(first)–\(last)", "Alarme \(first)–\(last)")
        let order = state.triage ? t.s("red first, oldest first", "rot zuerst, älteste zuerst") : t.s("newest first", "neueste zuerst")
        var links: [HTML] = []
        if page > 1 {
            let label = state.triage ? t.s("Previous page", "Vorherige Seite") : t.s("Newer alerts", "Neuere Alarme")
            links.append("<a href=\"\(with(page: page - 1).href)\" rel=\"prev\">← \(label)</a>")
        }
        if hasMore {
            let label = state.triage ? t.s("Next page", "Nächste Seite") : t.s("Older alerts", "Ältere Alarme")
            links.append("<a href=\"\(with(page: page + 1).href)\" rel=\"next\">\(label) →</a>")
        }
        return "<nav class=\"pager\" aria-label=\"\(t.s("Pages", "Seiten"))\"><span>\(range) (\(order))</span> \(links.joined(separator: " "))</nav>"
    }
}
