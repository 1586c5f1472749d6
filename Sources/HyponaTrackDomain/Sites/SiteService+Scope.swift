import HyponaTrackCore

/// The scope rule (docs/product.md, third round, S), asked by the router's one scope step for
/// every staff request: which sites the member reaches, and whether the record a route names
/// is one of theirs. A record outside the scope is answered with the very error a record that
/// does not exist gets (`DomainError.noPatient`, `noAlert`, `noProposal`), from the same place.
extension SiteService {
    /// The member's scope: every site for an admin (no read) and for an all-sites member, else
    /// their sites. A member who no longer exists reaches nobody.
    public func scope(staffName: String, role: Role) throws -> SiteScope {
        if role == .admin { return .allSites }
        return try transactions.read { try SiteRepository.scope($0, staffName: staffName) }
    }

    /// Nothing, for a patient the scope reaches; `noPatient` for one it does not or that does not exist.
    public func reach(studyId: String, scope: SiteScope) throws {
        try transactions.read { db in
            guard ValueRanges.isValidStudyId(studyId), let found = try SiteRepository.patientSite(db, studyId: studyId),
                  scope.contains(site: found.siteId) else { throw DomainError.noPatient(studyId) }
        }
    }

    /// Nothing, for an alert of a patient the scope reaches; `noAlert` otherwise.
    public func reach(alertId: Int64, scope: SiteScope) throws {
        try transactions.read { db in
            guard let site = try SiteRepository.alertSite(db, alertId: alertId), scope.contains(site: site) else {
                throw DomainError.noAlert(alertId)
            }
        }
    }

    /// Nothing, for a proposal about a patient the scope reaches; `noProposal` otherwise.
    public func reach(proposalId: Int64, scope: SiteScope) throws {
        try transactions.read { db in
            guard let site = try SiteRepository.proposalSite(db, proposalId: proposalId), scope.contains(site: site) else {
                throw DomainError.noProposal(proposalId)
            }
        }
    }

    /// The scope a list's `?site=CODE` leaves (a site the member does not reach: nobody);
    /// a code that is not a site is refused naming `site`.
    public func filter(site code: String, scope: SiteScope) throws -> SiteScope {
        try transactions.read { db in scope.narrowed(to: try Self.site(db, code: code, field: "site", missing: false).id) }
    }
}

/// The numbers a patient is shown: their site's clinic phone and emergency number, else the
/// study's (`app.clinicPhone`, `app.emergencyNumber`).
public struct ContactNumbers: Sendable, Equatable {
    public var clinicPhone: String?
    public var emergencyNumber: String

    public init(clinicPhone: String?, emergencyNumber: String) {
        self.clinicPhone = clinicPhone
        self.emergencyNumber = emergencyNumber
    }
}

extension SiteService {
    public func numbers(patientId: Int64, app: ServerConfiguration.App) throws -> ContactNumbers {
        Self.numbers(try site(patientId: patientId), app: app)
    }

    /// The numbers of a site by id, from the sites kept in memory (a day submission's answer
    /// reads no row for them); a site not found gives the study's.
    public func numbers(siteId: Int64, app: ServerConfiguration.App) throws -> ContactNumbers {
        Self.numbers(try site(id: siteId), app: app)
    }

    /// A site by id, from the sites kept in memory; nil when there is none.
    public func site(id: Int64) throws -> Site? { try sitesById()[id] }

    /// The site's clinic phone and emergency number, each else the study's (`app.*`).
    public static func numbers(_ site: Site?, app: ServerConfiguration.App) -> ContactNumbers {
        ContactNumbers(clinicPhone: site?.clinicPhone ?? app.clinicPhone, emergencyNumber: site?.emergencyNumber ?? app.emergencyNumber)
    }

    /// Every site by id, read once and kept until a site is added, changed or removed.
    public func sitesById() throws -> [Int64: Site] {
        let (generation, sites) = kept.withLock { $0 }
        if let sites { return sites }
        let all = try transactions.read { try SiteRepository.all($0) }
        let byId = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
        kept.withLock { if $0.generation == generation { $0.sites = byId } }
        return byId
    }
}
