/// Which patients a staff member's reads and actions reach (docs/product.md, third round, S):
/// those of every site, or those of some. Worked out once per request by the router's scope
/// step (`SiteService.scope`) and handed to every list, export and figure; a patient outside it
/// is answered exactly as one that does not exist.
public enum SiteScope: Sendable, Equatable {
    /// Admins and all-sites members.
    case allSites
    /// The sites' ids (possibly none: a member whose every site was taken away reaches nobody).
    case sites(Set<Int64>)

    public func contains(site id: Int64) -> Bool {
        switch self {
        case .allSites: true
        case .sites(let ids): ids.contains(id)
        }
    }

    public var isAllSites: Bool { self == .allSites }

    /// The scope a `?site=CODE` filter leaves: that site, if the member reaches it; else none.
    public func narrowed(to site: Int64) -> SiteScope { .sites(contains(site: site) ? [site] : []) }

    /// A SQL condition that a patient id column is one of the scope's patients, e.g.
    /// `d.patient_id IN (SELECT id FROM patients WHERE site_id IN (2))`; nil for all sites (no
    /// condition, so an all-sites read keeps its plan).
    public func patients(_ column: String) -> String? {
        isAllSites ? nil : "\(column) IN (SELECT id FROM patients WHERE \(condition("site_id")))"
    }

    /// A SQL condition on a patients' site column, e.g. `p.site_id IN (2,5)` (`1` for all sites,
    /// `0` for none). The ids are integers read from the database, never text from a request.
    public func condition(_ column: String) -> String {
        switch self {
        case .allSites: return "1"
        case .sites(let ids) where ids.isEmpty: return "0"
        case .sites(let ids): return "\(column) IN (\(ids.sorted().map(String.init).joined(separator: ",")))"
        }
    }
}
