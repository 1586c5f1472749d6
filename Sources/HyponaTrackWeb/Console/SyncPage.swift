import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// `/console/sync` (admins): the REDCap outbox and every hook's delivery state.
struct SyncPage {
    let layout: ConsoleLayout
    /// Nil when no `redcap` block is configured.
    let sync: SyncStatus?
    let hooks: [(hook: HookConfiguration, summary: HookOutboxSummary)]
    let zone: ZoneRules

    var t: ConsoleText { layout.t }

    func render() -> HTML {
        layout.page(t.sync, redcap() + hookTable())
    }

    private func time(_ ms: Int64?) -> String { ConsoleLayout.time(ms, zone: zone) }

    private func redcap() -> HTML {
        guard let s = sync else { return "<h2>REDCap</h2><p>\(t.s("The REDCap sync is off (no redcap block in the configuration).", "Die REDCap-Synchronisierung ist aus (kein redcap-Block in der Konfiguration)."))</p>" }
        let o = s.outbox
        let halted: HTML = o.halted
            ? "<span class=\"flag\">\(t.s("HALTED", "ANGEHALTEN"))</span>: \(o.haltReason ?? "") (\(time(o.haltedAt))) — <code>hyponatrack sync resume</code>"
            : "\(t.s("running", "läuft"))"
        let dead: [HTML] = o.deadLetters.map { d in
            "<tr><td>\(d.record)</td><td>\(d.instrument)</td><td class=\"num\">\(d.instance)</td><td>\(d.error ?? "")</td></tr>"
        }
        let deadTable: HTML = dead.isEmpty ? HTML() : """
            <h3>\(t.s("Dead letters", "Nicht zustellbar"))</h3><table><thead><tr><th scope="col">Record</th><th scope="col">Instrument</th>
            <th scope="col" class="num">Instance</th><th scope="col">REDCap</th></tr></thead><tbody>\(dead)</tbody></table>
            """
        return """
            <h2>REDCap</h2>
            <dl class="profile" id="redcap-status">
            <dt>URL</dt><dd>\(s.url)</dd>
            <dt>\(t.status)</dt><dd>\(halted)</dd>
            <dt>\(t.s("Pending rows", "Wartende Zeilen"))</dt><dd>\(o.pending)</dd>
            <dt>\(t.s("Oldest pending since", "Älteste wartet seit"))</dt><dd>\(time(o.oldestPendingAt))</dd>
            <dt>\(t.s("Dead letters", "Nicht zustellbar"))</dt><dd>\(o.dead)</dd>
            <dt>\(t.s("Last success", "Letzter Erfolg"))</dt><dd>\(time(o.lastSuccessAt))</dd>
            <dt>\(t.s("Last failure", "Letzter Fehler"))</dt><dd>\(time(o.lastFailureAt)) \(o.lastFailure ?? "")</dd>
            <dt>\(t.s("Consecutive failures", "Fehler in Folge"))</dt><dd>\(o.consecutiveFailures)</dd>
            <dt>\(t.s("Rows sent", "Gesendete Zeilen"))</dt><dd>\(o.sentRows)</dd>
            <dt>\(t.s("Requests in the last minute", "Anfragen in der letzten Minute"))</dt><dd>\(s.requestsLastMinute) / \(s.maxRequestsPerMinute)</dd>
            </dl>\(deadTable)
            """
    }

    private func hookTable() -> HTML {
        guard !hooks.isEmpty else { return "<h2>Hooks</h2><p>\(t.s("No hooks configured.", "Keine Hooks konfiguriert."))</p>" }
        let rows: [HTML] = hooks.map { h, s in
            let state: HTML = s.disabledAt != nil
                ? "<span class=\"flag\">\(t.s("disabled", "abgeschaltet"))</span> \(s.disabledReason ?? "")" : "\(t.s("active", "aktiv"))"
            return """
                <tr><th scope="row">\(h.name)</th><td>\(state)</td><td class="num">\(s.pending)</td><td>\(time(s.oldestPendingAt))</td>\
                <td class="num">\(s.delivered)</td><td class="num">\(s.dead)</td><td>\(s.lastError ?? "–")</td></tr>
                """
        }
        return """
            <h2>Hooks</h2><table id="hooks"><thead><tr><th scope="col">Hook</th><th scope="col">\(t.status)</th>
            <th scope="col" class="num">\(t.s("Pending", "Wartend"))</th><th scope="col">\(t.s("Oldest pending", "Älteste wartend"))</th>
            <th scope="col" class="num">\(t.s("Delivered", "Zugestellt"))</th><th scope="col" class="num">\(t.s("Dead letters", "Nicht zustellbar"))</th>
            <th scope="col">\(t.s("Last error", "Letzter Fehler"))</th></tr></thead><tbody>\(rows)</tbody></table>
            """
    }
}
