import HTML
import HyponaTrackDomain

/// A select of the study's sites by code (the name shown beside it), for the board's and the
/// statistics' site filters (the inbox's are links). Codes are `[a-z0-9_]`, so
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
}
