import Charts
import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// `/console/`: the ward board, in `WardBoard.urgency` order (unhandled red, unhandled yellow,
/// handled red, handled yellow, green, no data), narrowed by `WardBoardFilter`.
struct BoardPage {
    let layout: ConsoleLayout
    let board: WardBoard
    let all: Bool
    /// The rules' facts the reasons are worded with.
    let facts: ReasonWording.Facts
    /// The study's sites by id, for an all-sites member of a study with several: the board
    /// then has a site column and a site filter (a site-bound member has neither).
    var sites: [Int64: Site]? = nil

    var t: ConsoleText { layout.t }

    /// The query parameter the board's own reload carries (the router does not count it as
    /// activity for the idle timeout).
    static let autoRefreshParameter = "auto"
    /// How often the board reloads itself, without script (`<meta http-equiv="refresh">`).
    static let refreshSeconds = 60

    var filter: WardBoardFilter { WardBoardFilter { layout.request.http.query[$0] } }

    /// "(2 red, 1 yellow) Ward board": what a nurse sees on the tab without opening it (the
    /// whole ward, whatever the filter).
    var documentTitle: String {
        let red = board.rows.filter { $0.level == .red }.count, yellow = board.rows.filter { $0.level == .yellow }.count
        var counts: [String] = []
        if red > 0 { counts.append(t.s("\(red) red", "\(red) rot")) }
        if yellow > 0 { counts.append(t.s("\(yellow) yellow", "\(yellow) gelb")) }
        return counts.isEmpty ? t.board : "(\(counts.joined(separator: ", "))) \(t.board)"
    }

    /// `?refresh=off`: the board stays put (WCAG 2.2.1: a user can turn a time limit off; a
    /// screen-reader user reading a long board should not be reset every minute).
    static let pauseParameter = "refresh"
    var paused: Bool { layout.request.http.query[Self.pauseParameter] == "off" }

    /// `/console/` with the view (`all=1`) and the filter kept, and `extra` after them.
    func url(_ extra: [(name: String, value: String)] = []) -> String {
        let items = (all ? [(name: "all", value: "1")] : []) + filter.queryItems + extra
        let query = items.map { "\($0.name)=\(URLComponentEncoding.queryValue($0.value))" }.joined(separator: "&")
        return "/console/" + (query.isEmpty ? "" : "?" + query)
    }

    /// The same board again in a minute, with its view and filter kept; nothing while paused.
    var refresh: HTML {
        guard !paused else { return HTML() }
        return "<meta http-equiv=\"refresh\" content=\"\(Self.refreshSeconds); url=\(url([(Self.autoRefreshParameter, "1")]))\">"
    }

    /// The switch between the two: "Stop refreshing" / "Refresh every minute".
    var refreshSwitch: HTML {
        if paused {
            return "<p class=\"muted\" id=\"refresh-switch\"><a href=\"\(url())\">\(t.s("Refresh every minute", "Jede Minute aktualisieren"))</a></p>"
        }
        return "<p class=\"muted\" id=\"refresh-switch\">\(t.s("This board refreshes every minute.", "Diese Übersicht aktualisiert sich jede Minute.")) <a href=\"\(url([(Self.pauseParameter, "off")]))\">\(t.s("Stop refreshing", "Nicht mehr aktualisieren"))</a></p>"
    }

    /// The filter form: plain GET, no script; it keeps the view and a paused refresh.
    var filterForm: HTML {
        let f = filter
        func option(_ value: String, _ label: String, selected: Bool) -> HTML {
            "<option value=\"\(value)\"\(selected ? HTML(" selected") : HTML())>\(label)</option>"
        }
        let levels: [HTML] = [option("", t.s("All", "Alle"), selected: f.level == nil)] + WardBoardFilter.LevelChoice.allCases.map { c in
            option(c.rawValue, c == .none ? t.s("no data", "keine Daten") : t.vocabulary.level(c == .red ? .red : c == .yellow ? .yellow : .green),
                   selected: f.level == c)
        }
        let states: [HTML] = [option("", t.s("All", "Alle"), selected: f.handling == nil)]
            + BoardHandling.allCases.map { option($0.rawValue, t.handling($0), selected: f.handling == $0) }
        var hidden: HTML = all ? "<input type=\"hidden\" name=\"all\" value=\"1\">" : HTML()
        if paused { hidden = hidden + "<input type=\"hidden\" name=\"\(Self.pauseParameter)\" value=\"off\">" }
        let clear: HTML = f.isEmpty ? HTML() : "<a href=\"/console/\(all ? "?all=1" : "")\">\(t.s("Clear filters", "Filter zurücksetzen"))</a>"
        return """
            <form method="get" action="/console/" class="inline board-filter" id="board-filter" role="search" \
            aria-label="\(t.s("Filter the board", "Übersicht filtern"))">\(hidden)
            <div><label for="filter-level">\(t.level)</label><select id="filter-level" name="\(WardBoardFilter.levelParameter)">\(levels)</select></div>
            <div><label for="filter-handling">\(t.s("Handling", "Bearbeitung"))</label>\
            <select id="filter-handling" name="\(WardBoardFilter.handlingParameter)">\(states)</select></div>
            \(siteSelect(f))<div><label for="filter-q">\(t.studyId)</label><input type="text" id="filter-q" name="\(WardBoardFilter.studyIdParameter)" \
            value="\(f.studyId)" autocomplete="off"></div>
            <div><button type="submit">\(t.s("Filter", "Filtern"))</button> \(clear)</div></form>
            """
    }

    /// The site select (all-sites members of a study with several sites).
    func siteSelect(_ f: WardBoardFilter) -> HTML {
        guard let sites else { return HTML() }
        return "<div>" + SiteChoice.select(id: "filter-site", label: t.s("Site", "Standort"), sites: sites, selected: f.site,
                                           all: t.s("All", "Alle")) + "</div>"
    }

    func render() -> HTML {
        let shown = board.rows.filter(filter.matches)
        let rows = shown.map { row in
            BoardRow(layout: layout, wording: ReasonWording(t.language, facts: facts), row: row, at: board.at,
                     site: sites.map { $0[row.patient.siteId] }).html
        }
        // Soft hyphens in the long German heads: with the site column the board still fits 1,280 px.
        let siteHead: HTML = sites == nil ? HTML() : "<th scope=\"col\">\(t.s("Site", "Stand\u{00AD}ort"))</th>"
        let caption = shown.count == board.rows.count
            ? t.s("\(board.rows.count) patients, most urgent first", "\(board.rows.count) Patienten, dringlichste zuerst")
            : t.s("\(shown.count) of \(board.rows.count) patients, most urgent first",
                  "\(shown.count) von \(board.rows.count) Patienten, dringlichste zuerst")
        let table: HTML = rows.isEmpty ? "<p>\(t.noPatients)</p>" : ConsoleLayout.scrolling("""
            <table id="board"\(sites == nil ? HTML() : " class=\"with-site\"")><caption class="muted" id="board-caption">\(caption)</caption>
            <thead><tr><th scope="col">\(t.studyId)</th>\(siteHead)<th scope="col">\(t.level)</th><th scope="col">\(t.s("Why", "Warum"))</th>
            <th scope="col">\(t.s("Since", "Seit"))</th><th scope="col">\(t.s("Handling", "Bear\u{00AD}beitung"))</th>
            <th scope="col"><abbr title="\(t.s("postoperative day", "postoperativer Tag"))">\(t.pod)</abbr></th>
            <th scope="col">\(t.s("Risk class", "Risiko"))</th><th scope="col">\(t.s("Last submission", "Letzte Über\u{00AD}mittlung"))</th><th scope="col">\(t.missingChecks)</th>
            <th scope="col" class="num">\(t.openAlerts)</th><th scope="col">\(t.status)</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """, labelledBy: "board-caption")
        let toggle: HTML = all ? "<p><a href=\"/console/\">\(t.showActive)</a></p>"
            : (board.hidden > 0 ? "<p><a href=\"/console/?all=1\">\(t.showAll) (\(board.hidden))</a></p>" : HTML())
        let enrol: HTML = layout.session?.role.canWrite == true ? "<p class=\"actions\"><a href=\"/console/enrolment\">\(t.enrol)</a></p>" : HTML()
        return layout.page(t.board, enrol + refreshSwitch + filterForm + table + toggle, documentTitle: documentTitle, head: refresh)
    }
}
