import HyponaTrackCore
import SQLite
import Synchronization

/// The study's sites (docs/product.md, third round, S): managed by admins, each change with its
/// audit row in one transaction; which sites a staff member works for; patients' transfers; and
/// the scope every staff request is confined to (`scope`, `reach`).
public final class SiteService: Sendable {
    let transactions: Transactions
    let clock: any ServerClock
    /// The REDCap outbox (nil: sync off): a transfer or a new DAG queues the patients' rows again.
    let outbox: SyncOutbox?
    /// A transfer re-plans the patient's escalation tiers not yet fired on the new site's ladder.
    let alerting: Alerting?
    let rules: ActiveRules
    /// The sites by id as last read (`sitesById`); nil after a change, until read again. The
    /// generation moves with every change, so a read that raced one is not kept.
    let kept = Mutex<(generation: Int, sites: [Int64: Site]?)>((0, nil))

    init(context: StudyContext) {
        transactions = context.transactions
        clock = context.clock
        outbox = context.outbox
        alerting = context.alerting
        rules = context.rules
    }

    // MARK: sites

    public func add(_ command: AddSite) throws -> SiteView {
        defer { forgetSites() }
        let ms = epochMilliseconds(clock.now())
        guard SiteRules.isValidCode(command.code) else { throw Self.badCode(command.code, field: "code") }
        var site = Site(id: 0, definition: command.definition, createdAt: ms)
        try Self.check(site)
        return try transactions.write { db in
            guard try SiteRepository.find(db, code: site.code) == nil else {
                throw DomainError.conflict("a site with the code \(site.code) exists", field: "code")
            }
            try Self.checkGroups(db, site, was: nil)
            site.id = try SiteRepository.insert(db, site, by: command.actor)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .siteAdd, subject: "site:\(site.code)",
                                details: AuditDetails.SiteFields(site))
            return SiteView(site: site, patients: 0, staff: 0)
        }
    }

    /// Every site by code, with its patients and active staff counted.
    public func list() throws -> [SiteView] {
        try transactions.read { db in
            try SiteRepository.all(db).map { site in
                SiteView(site: site, patients: try SiteRepository.patientCount(db, site: site.id),
                         staff: try SiteRepository.staffCount(db, site: site.id))
            }
        }
    }

    public func update(_ command: UpdateSite) throws -> SiteView {
        defer { forgetSites() }
        let ms = epochMilliseconds(clock.now())
        return try transactions.write { db in
            var site = try Self.site(db, code: command.code, field: "code", missing: true)
            let was = site
            if let name = command.name { site.name = name }
            if let zone = command.timeZone { site.timeZone = zone }
            if let phone = command.clinicPhone { site.clinicPhone = phone }
            if let number = command.emergencyNumber { site.emergencyNumber = number }
            if let dag = command.redcapDAG { site.redcapDAG = dag }
            try Self.check(site)
            try Self.checkGroups(db, site, was: was)
            try SiteRepository.update(db, site, at: ms)
            if site.redcapDAG != was.redcapDAG, let outbox {
                // The site's records join its new group with their next rows: queue them now.
                let snapshot = rules.snapshot
                for id in try SiteRepository.patientIds(db, site: site.id) {
                    if let patient = try PatientRepository.load(db, id: id) { try outbox.enqueuePatient(db, patient, snapshot: snapshot, at: ms) }
                }
            }
            try AuditLog.append(db, at: ms, actor: command.actor, action: .siteUpdate, subject: "site:\(site.code)",
                                details: AuditDetails.SiteFields(site))
            return SiteView(site: site, patients: try SiteRepository.patientCount(db, site: site.id),
                            staff: try SiteRepository.staffCount(db, site: site.id))
        }
    }

    /// Removes a site no patient and no active staff member belongs to (409 `conflict` otherwise).
    public func remove(_ command: RemoveSite) throws {
        defer { forgetSites() }
        let ms = epochMilliseconds(clock.now())
        try transactions.write { db in
            let site = try Self.site(db, code: command.code, field: "code", missing: true)
            let patients = try SiteRepository.patientCount(db, site: site.id), staff = try SiteRepository.staffCount(db, site: site.id)
            guard patients == 0 && staff == 0 else {
                throw DomainError.conflict("the site \(site.code) still holds \(patients) patient(s) and \(staff) staff member(s): "
                                           + "transfer them first (hyponatrack transfer, hyponatrack staff sites)", field: "code")
            }
            try SiteRepository.delete(db, id: site.id)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .siteRemove, subject: "site:\(site.code)",
                                details: AuditDetails.SiteRemoved(code: site.code))
        }
    }

    /// After a site changed (its COMMIT done or rolled back): the next `sitesById` reads them again.
    private func forgetSites() { kept.withLock { $0 = ($0.generation + 1, nil) } }

    // MARK: staff

    /// Sets the sites a member works for; audited as `staff.sites`.
    public func setStaffSites(_ command: SetStaffSites) throws -> StaffView {
        let ms = epochMilliseconds(clock.now())
        return try transactions.write { db in
            guard let member = try StaffDirectory.findStaff(db, name: command.name), member.isActive else {
                throw DomainError.notFound("no active staff member named \(command.name)")
            }
            let (allSites, ids, codes) = try Self.resolve(db, command.sites, role: member.role)
            try SiteRepository.setStaffSites(db, staffId: member.id, allSites: allSites, sites: ids)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .staffSites, subject: "staff:\(member.name)",
                                details: AuditDetails.StaffSiteList(role: member.role.rawValue, sites: codes, allSites: allSites))
            return StaffView(member, sites: codes, allSites: allSites)
        }
    }

    /// The sites a new or changed member gets: admins all (naming a site for one is refused);
    /// `allSites`; the codes given (each must exist); or, with neither, the study's only site.
    /// Every refusal names the field `site`, as the CLI's `--site`.
    static func resolve(_ db: Connection, _ wanted: StaffSites, role: Role) throws -> (allSites: Bool, ids: [Int64], codes: [String]) {
        if role == .admin {
            guard wanted.sites.isEmpty else { throw DomainError.invalid("site", "an admin works for every site: give no site") }
            return (true, [], [])
        }
        if wanted.allSites {
            guard wanted.sites.isEmpty else { throw DomainError.invalid("site", "give sites or all sites, not both") }
            return (true, [], [])
        }
        if wanted.sites.isEmpty {
            let all = try SiteRepository.all(db)
            guard all.count == 1 else {
                throw DomainError.invalid("site", all.isEmpty ? "the study has no site yet: add one first (hyponatrack site add)"
                                                              : "the study has \(all.count) sites: name the member's sites or all sites")
            }
            return (false, [all[0].id], [all[0].code])
        }
        var ids: [Int64] = [], codes: [String] = []
        for code in wanted.sites where !codes.contains(code) {
            let site = try site(db, code: code, field: "site", missing: false)
            ids.append(site.id)
            codes.append(site.code)
        }
        return (false, ids, codes.sorted())
    }

    // MARK: patients

    /// Moves a patient to another site; everything recorded about them goes along. Audited.
    public func transfer(_ command: TransferPatient) throws -> Transferred {
        let ms = epochMilliseconds(clock.now())
        return try transactions.write { db in
            guard ValueRanges.isValidStudyId(command.studyId), let patient = try PatientRepository.load(db, studyId: command.studyId) else {
                throw DomainError.noPatient(command.studyId)
            }
            let target = try Self.site(db, code: command.site, field: "site", missing: false)
            let from = try SiteRepository.find(db, id: patient.siteId)
            guard target.id != patient.siteId else {
                throw DomainError.invalid("site", "\(patient.studyId) is already at the site \(target.code)")
            }
            if target.redcapDAG == nil, let dag = from?.redcapDAG {
                throw DomainError.invalid("site", "the site \(target.code) has no REDCap DAG and REDCap cannot take the record out of "
                                          + "\(dag): give \(target.code) its DAG first (hyponatrack site update)")
            }
            try SiteRepository.movePatient(db, patientId: patient.id, to: target.id, at: ms)
            var moved = patient
            moved.siteId = target.id
            // The DAG follows (every row again, naming the new group), and so does the ladder.
            try outbox?.enqueuePatient(db, moved, snapshot: rules.snapshot, at: ms)
            try alerting?.replan(db, patientId: patient.id, site: target.code, at: ms)
            let fromCode = from?.code ?? "?"
            try AuditLog.append(db, at: ms, actor: command.actor, action: .patientTransfer, subject: patient.studyId,
                                details: AuditDetails.PatientTransfer(from: fromCode, to: target.code))
            return Transferred(studyId: patient.studyId, from: fromCode, to: target.code)
        }
    }

    /// The site a new patient is enrolled at: the one named (it must exist and be one of the
    /// caller's), or the study's only site; several sites and none named is refused naming `site`.
    public func enrolmentSite(code: String?, scope: SiteScope) throws -> Site {
        try transactions.read { db in try Self.enrolmentSite(db, code: code, scope: scope) }
    }

    static func enrolmentSite(_ db: Connection, code: String?, scope: SiteScope) throws -> Site {
        guard let code else {
            let all = try SiteRepository.all(db)
            guard all.count == 1 else {
                throw DomainError.invalid("site", all.isEmpty ? "the study has no site yet: add one first (hyponatrack site add)"
                                                              : "the study has \(all.count) sites: name the patient's site")
            }
            guard scope.contains(site: all[0].id) else { throw DomainError.invalid("site", "the site \(all[0].code) is not one of yours") }
            return all[0]
        }
        let site = try site(db, code: code, field: "site", missing: false)
        guard scope.contains(site: site.id) else { throw DomainError.invalid("site", "the site \(site.code) is not one of yours") }
        return site
    }

    /// The patient's site (for its clinic and emergency numbers); nil for no such patient.
    public func site(patientId: Int64) throws -> Site? {
        try transactions.read { db in try SiteRepository.patientSite(db, patientId: patientId).flatMap { try SiteRepository.find(db, id: $0) } }
    }

    // MARK: checks

    static func site(_ db: Connection, code: String, field: String, missing notFound: Bool) throws -> Site {
        guard SiteRules.isValidCode(code) else { throw badCode(code, field: field) }
        guard let site = try SiteRepository.find(db, code: code) else {
            // A site named in a path is a missing record; one named in a body or option a wrong value.
            if notFound { throw DomainError.notFound("no site \(code)") }
            throw DomainError.invalid(field, "no site \(code) (hyponatrack site list)")
        }
        return site
    }

    /// DAGs all or none (docs/product.md, settled S; REDCap cannot un-assign a record): a new
    /// site needs one when another site has one; a DAG once set is not cleared while the site
    /// holds patients or another site has one; no two sites share a group. Setting DAGs site by
    /// site on a study that had none is allowed (`sync check` names the sites still without).
    static func checkGroups(_ db: Connection, _ site: Site, was: Site?) throws {
        let others = try SiteRepository.all(db).filter { $0.id != site.id }
        guard let dag = site.redcapDAG else {
            if was == nil, others.contains(where: { $0.redcapDAG != nil }) {
                throw DomainError.invalid("redcapDag", "the other sites have REDCap DAGs: give this one its own")
            }
            if let old = was?.redcapDAG, try others.contains(where: { $0.redcapDAG != nil }) || SiteRepository.patientCount(db, site: site.id) > 0 {
                throw DomainError.invalid("redcapDag", "REDCap cannot take a record out of its DAG (\(old)): give another DAG instead")
            }
            return
        }
        if let taken = others.first(where: { $0.redcapDAG == dag }) {
            throw DomainError.conflict("the site \(taken.code) has the REDCap DAG \(dag)", field: "redcapDag")
        }
    }

    static func badCode(_ code: String, field: String) -> DomainError {
        DomainError.invalid(field, "\"\(code.prefix(40))\" is not a site code: a lower-case letter, then up to 31 lower-case letters, digits or _")
    }

    static func check(_ site: Site) throws {
        guard SiteRules.isValidName(site.name) else { throw DomainError.invalid("name", "1–100 characters, no control characters") }
        if let zone = site.timeZone, !SiteRules.isValidTimeZone(zone) {
            throw DomainError.invalid("timeZone", "\"\(zone.prefix(64))\" is not an IANA time zone (e.g. Europe/Berlin)")
        }
        if let phone = site.clinicPhone, !SiteRules.isValidPhone(phone, length: 1...30) {
            throw DomainError.invalid("clinicPhone", "1–30 characters: digits, spaces and a leading +")
        }
        if let number = site.emergencyNumber, !SiteRules.isValidPhone(number, length: 1...20) {
            throw DomainError.invalid("emergencyNumber", "1–20 characters: digits, spaces and a leading +")
        }
        if let dag = site.redcapDAG, !SiteRules.isValidDAG(dag) {
            throw DomainError.invalid("redcapDag", "a REDCap group's unique name: 1–32 lower-case letters, digits or _")
        }
    }
}
