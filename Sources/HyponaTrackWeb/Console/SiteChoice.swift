import HTML
import HyponaTrackDomain

/// A select of the study's sites by code (the name shown beside it), for the board's, the
/// statistics' and the outcomes' site filters (the inbox's are links). Codes are `[a-z0-9_]`, so
/// they need no escaping in a query; names are escaped as every interpolated text is.
enum SiteChoice {
    /// `all`: the first option's label, meaning every site (value ""); nil: no such option.
    static func select(id: String, name: String = "site", label: String, sites: [Int64: Site], selected: String, all: String?,
                       invalid: HTML = HTML()) -> HTML {
        let ordered = sites.values.sorted { $0.code < $1.code }
        let first: [HTML] = all.map { ["<option value=\"\"\(selected.isEmpty ? HTML(" selected") : HTML())>\($0)</option>"] } ?? []
        let options: [HTML] = first + ordered.map { site in
            "<option value=\"\(site.code)\"\(site.code == selected ? HTML(" selected") : HTML())>\(site.code) – \(site.name)</option>"
        }
        return "<label for=\"\(id)\">\(label)</label><select id=\"\(id)\" name=\"\(name)\"\(invalid)>\(options)</select>"
    }

    /// A site filter for all-sites members: a plain GET form (no script) to `action` with the
    /// select and a button; `kept`: other query values the page keeps (e.g. its dates). Nothing
    /// without `sites` (a site-bound member, or a study of one site).
    static func filter(action: String, id: String, label: String, sites: [Int64: Site]?, selected: String, t: ConsoleText,
                       kept: [(String, String)] = []) -> HTML {
        guard let sites else { return HTML() }
        let hidden: [HTML] = kept.map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\($0.1)\">" }
        return """
            <form method="get" action="\(action)" class="inline" id="\(id)" role="search" aria-label="\(label)"><div>\(hidden)\
            \(select(id: "\(id)-select", label: t.s("Site", "Standort"), sites: sites, selected: selected, all: t.s("All", "Alle")))\
            </div><div><button type="submit">\(t.s("Show", "Anzeigen"))</button></div></form>
            """
    }
}
