import Charts
import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// `/console/`: the ward board, in `WardBoard.urgency` order (red, yellow, green, no data).
struct BoardPage {
    let layout: ConsoleLayout
    let board: WardBoard
    let all: Bool

    var t: ConsoleText { layout.t }

    /// The query parameter the board's own reload carries (the router does not count it as
    /// activity for the idle timeout).
    static let autoRefreshParameter = "auto"
    /// How often the board reloads itself, without script (`<meta http-equiv="refresh">`).
    static let refreshSeconds = 60

    /// "(2 red, 1 yellow) Ward board": what a nurse sees on the tab without opening it.
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

    /// The same board again in a minute, with its view kept (`all=1`); nothing while paused.
    var refresh: HTML {
        guard !paused else { return HTML() }
        let url = "/console/?" + (all ? "all=1&" : "") + "\(Self.autoRefreshParameter)=1"
        return "<meta http-equiv=\"refresh\" content=\"\(Self.refreshSeconds); url=\(url)\">"
    }

    /// The switch between the two: "Stop refreshing" / "Refresh every minute".
    var refreshSwitch: HTML {
        let view = all ? "all=1" : ""
        if paused {
            return "<p class=\"muted\" id=\"refresh-switch\"><a href=\"/console/\(view.isEmpty ? "" : "?" + view)\">\(t.s("Refresh every minute", "Jede Minute aktualisieren"))</a></p>"
        }
        let off = "/console/?" + (view.isEmpty ? "" : view + "&") + "\(Self.pauseParameter)=off"
        return "<p class=\"muted\" id=\"refresh-switch\">\(t.s("This board refreshes every minute.", "Diese Übersicht aktualisiert sich jede Minute.")) <a href=\"\(off)\">\(t.s("Stop refreshing", "Nicht mehr aktualisieren"))</a></p>"
    }

    func render() -> HTML {
        let rows = board.rows.map(row)
        let table: HTML = rows.isEmpty ? "<p>\(t.noPatients)</p>" : """
            <table id="board"><caption class="muted">\(t.s("\(board.rows.count) patients, most urgent first",
                                                        "\(board.rows.count) Patienten, dringlichste zuerst"))</caption>
            <thead><tr><th scope="col">\(t.studyId)</th><th scope="col">\(t.level)</th><th scope="col" class="num">\(t.pod)</th>
            <th scope="col">\(t.riskClass)</th><th scope="col">\(t.lastSubmission)</th><th scope="col">\(t.missingChecks)</th>
            <th scope="col" class="num">\(t.openAlerts)</th><th scope="col">\(t.status)</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
        let toggle: HTML = all ? "<p><a href=\"/console/\">\(t.showActive)</a></p>"
            : (board.hidden > 0 ? "<p><a href=\"/console/?all=1\">\(t.showAll) (\(board.hidden))</a></p>" : HTML())
        return layout.page(t.board, refreshSwitch + table + toggle, documentTitle: documentTitle, head: refresh)
    }

    func row(_ r: WardBoard.Row) -> HTML {
        let last = r.lastSubmissionAt.map { t.age(seconds: board.at - Double($0) / 1000) } ?? t.never
        let missing = r.missingChecks.isEmpty ? t.none : r.missingChecks.map(t.missing).joined(separator: ", ")
        let status: HTML = r.status == .activationOverdue ? "<span class=\"flag\">\(t.status(r.status))</span>" : "\(t.status(r.status))"
        return """
            <tr class="row-\(r.level?.rawValue ?? "none")" data-study-id="\(r.patient.studyId)" data-level="\(r.level?.rawValue ?? "none")">\
            <td>\(ConsoleLayout.patientLink(r.patient.studyId))</td><td>\(layout.badge(r.level))</td><td class="num">\(r.pod)</td>\
            <td>\(t.riskWord(r.riskClass))</td><td>\(last)</td>\
            <td\(r.missingChecks.isEmpty ? HTML() : " class=\"flag\"")>\(missing)</td><td class="num">\(r.openAlerts)</td><td>\(status)</td></tr>
            """
    }
}
