import SQLite

/// Reads and writes `sites`, `staff_sites`, `staff.all_sites` and `patients.site_id` (see
/// `SitesSchema`). Callers own the transaction; the rules are `SiteService`'s.
enum SiteRepository {
    static func insert(_ db: Connection, _ site: Site, by actor: String) throws -> Int64 {
        try db.execute("""
            INSERT INTO sites (code, name, time_zone, clinic_phone, emergency_number, redcap_dag, created_at, created_by, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [site.code, site.name, site.timeZone, site.clinicPhone, site.emergencyNumber, site.redcapDAG, site.createdAt, actor,
                  site.createdAt])
        return db.lastInsertRowID
    }

    static func update(_ db: Connection, _ site: Site, at ms: Int64) throws {
        try db.execute("""
            UPDATE sites SET name = ?, time_zone = ?, clinic_phone = ?, emergency_number = ?, redcap_dag = ?, updated_at = ?
            WHERE id = ?
            """, [site.name, site.timeZone, site.clinicPhone, site.emergencyNumber, site.redcapDAG, ms, site.id])
    }

    static func delete(_ db: Connection, id: Int64) throws {
        // A revoked member's links go with the site (an active member's keep it, see `SiteService.remove`).
        try db.execute("DELETE FROM staff_sites WHERE site_id = ?", [id])
        try db.execute("DELETE FROM sites WHERE id = ?", [id])
    }

    static func all(_ db: Connection) throws -> [Site] {
        try db.query("SELECT * FROM sites ORDER BY code").map(decode)
    }

    static func find(_ db: Connection, code: String) throws -> Site? {
        try db.queryOne("SELECT * FROM sites WHERE code = ?", [code]).map(decode)
    }

    static func find(_ db: Connection, id: Int64) throws -> Site? {
        try db.queryOne("SELECT * FROM sites WHERE id = ?", [id]).map(decode)
    }

    /// Patients of the site, withdrawn ones included.
    static func patientCount(_ db: Connection, site: Int64) throws -> Int {
        try db.scalar("SELECT count(*) FROM patients WHERE site_id = ?", [site], as: Int.self) ?? 0
    }

    /// Active staff members bound to the site.
    static func staffCount(_ db: Connection, site: Int64) throws -> Int {
        try db.scalar("""
            SELECT count(*) FROM staff_sites JOIN staff ON staff.id = staff_id WHERE site_id = ? AND revoked_at IS NULL
            """, [site], as: Int.self) ?? 0
    }

    // MARK: staff

    /// A member's sites (ids) and whether they are all-sites; nil for no such member.
    static func staffSites(_ db: Connection, staffId: Int64) throws -> (allSites: Bool, sites: Set<Int64>)? {
        guard let row = try db.queryOne("SELECT all_sites FROM staff WHERE id = ?", [staffId]) else { return nil }
        let ids = try db.query("SELECT site_id FROM staff_sites WHERE staff_id = ?", [staffId]).map { try $0.int64(0) }
        return (try row.int64(0) != 0, Set(ids))
    }

    /// Every member's site codes by staff id (for `staff list`).
    static func staffSiteCodes(_ db: Connection) throws -> [Int64: [String]] {
        var codes: [Int64: [String]] = [:]
        for row in try db.query("SELECT staff_id, code FROM staff_sites JOIN sites ON sites.id = site_id ORDER BY code") {
            codes[try row.int64(0), default: []].append(try row.string(1))
        }
        return codes
    }

    static func setStaffSites(_ db: Connection, staffId: Int64, allSites: Bool, sites: [Int64]) throws {
        TokenCache.credentialsChanged(db)
        try db.execute("UPDATE staff SET all_sites = ? WHERE id = ?", [allSites ? 1 : 0, staffId])
        try db.execute("DELETE FROM staff_sites WHERE staff_id = ?", [staffId])
        for site in sites {
            try db.execute("INSERT INTO staff_sites (staff_id, site_id) VALUES (?, ?)", [staffId, site])
        }
    }

    // MARK: patients

    /// The patient's id and site by study ID (case-insensitive), or nil.
    static func patientSite(_ db: Connection, studyId: String) throws -> (patientId: Int64, siteId: Int64)? {
        try db.queryOne("SELECT id, site_id FROM patients WHERE study_id_key = ?", [PatientRecord.key(studyId)])
            .map { (try $0.int64(0), try $0.int64(1)) }
    }

    /// The sites a staff member reaches: all of them for an all-sites member, else their own
    /// (none for a name that is no member).
    static func scope(_ db: Connection, staffName: String) throws -> SiteScope {
        let rows = try db.query("""
            SELECT s.all_sites, ss.site_id FROM staff s LEFT JOIN staff_sites ss ON ss.staff_id = s.id WHERE s.name = ?
            """, [staffName])
        if try rows.first?.int64(0) == 1 { return .allSites }
        return .sites(Set(try rows.compactMap { try $0.optionalInt64(1) }))
    }

    /// The site of the patient an alert is about (nil: no such alert).
    static func alertSite(_ db: Connection, alertId: Int64) throws -> Int64? {
        try db.queryOne("SELECT p.site_id FROM alerts a JOIN patients p ON p.id = a.patient_id WHERE a.id = ?", [alertId])?.int64(0)
    }

    /// The site of the patient an import proposal is about (nil: no such proposal).
    static func proposalSite(_ db: Connection, proposalId: Int64) throws -> Int64? {
        try db.queryOne("SELECT p.site_id FROM import_proposals i JOIN patients p ON p.id = i.patient_id WHERE i.id = ?",
                        [proposalId])?.int64(0)
    }

    static func patientSite(_ db: Connection, patientId: Int64) throws -> Int64? {
        try db.queryOne("SELECT site_id FROM patients WHERE id = ?", [patientId])?.int64(0)
    }

    /// The REDCap DAG of a site (nil: none, or no such site).
    static func redcapDAG(_ db: Connection, siteId: Int64) throws -> String? {
        try db.queryOne("SELECT redcap_dag FROM sites WHERE id = ?", [siteId])?.optionalString(0)
    }

    /// The REDCap DAG of a patient's site by study ID (case-insensitive; nil: none, or no such patient).
    static func redcapDAG(_ db: Connection, studyId: String) throws -> String? {
        try db.queryOne("SELECT s.redcap_dag FROM patients p JOIN sites s ON s.id = p.site_id WHERE p.study_id_key = ?",
                        [PatientRecord.key(studyId)])?.optionalString(0)
    }

    /// The code of a patient's site (nil: no such patient).
    static func patientSiteCode(_ db: Connection, patientId: Int64) throws -> String? {
        try db.queryOne("SELECT s.code FROM patients p JOIN sites s ON s.id = p.site_id WHERE p.id = ?", [patientId])?.string(0)
    }

    /// The ids of the site's patients, withdrawn ones included.
    static func patientIds(_ db: Connection, site: Int64) throws -> [Int64] {
        try db.query("SELECT id FROM patients WHERE site_id = ? ORDER BY id", [site]).map { try $0.int64(0) }
    }

    static func movePatient(_ db: Connection, patientId: Int64, to site: Int64, at ms: Int64) throws {
        try db.execute("UPDATE patients SET site_id = ?, updated_at = ? WHERE id = ?", [site, ms, patientId])
    }

    static func decode(_ row: Row) throws -> Site {
        Site(id: try row.int64("id"),
             definition: SiteDefinition(code: try row.string("code"), name: try row.string("name"),
                                        timeZone: try row.optionalString("time_zone"), clinicPhone: try row.optionalString("clinic_phone"),
                                        emergencyNumber: try row.optionalString("emergency_number"),
                                        redcapDAG: try row.optionalString("redcap_dag")),
             createdAt: try row.int64("created_at"))
    }
}
