import Foundation
import Testing
import HTJSON

/// The upgrade of a database of the release before sites (docs/product.md, third round, S): one
/// site `main` holds every patient, every existing staff member becomes all-sites, nothing else
/// changes, and the keyed audit chain still verifies.
@Suite struct SiteUpgradeTests {
    /// The rows the upgrade must leave as they were, each table read with the columns it had before.
    static let unchanged = [
        "SELECT id, study_id, study_id_key, profile, enrolled_at, enrolled_by, activated_at, withdrawn_at, withdrawal_date, "
            + "withdrawal_reason, updated_at FROM patients ORDER BY id",
        "SELECT id, name, role, created_at, created_by, revoked_at, revoked_by FROM staff ORDER BY id",
        "SELECT * FROM days ORDER BY patient_id, date", "SELECT * FROM evaluations ORDER BY rowid",
        "SELECT * FROM lab_values ORDER BY id", "SELECT * FROM alerts ORDER BY id", "SELECT * FROM staff_tokens ORDER BY id",
        "SELECT * FROM patient_tokens ORDER BY id", "SELECT * FROM activation_codes ORDER BY id",
    ]

    func snapshot(_ trail: AuditTrailFile) throws -> [String] {
        try Self.unchanged.map { try trail.sqlite([trail.path, $0]) }
    }

    @Test func aDatabaseOfTheReleaseBeforeSitesGetsTheSiteMainWithEveryPatientAndAllSitesStaff() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("htsu-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let dataDir = root.appendingPathComponent("data")
        let d = try TestDaemon(dataDir: dataDir)
        let token = try Study.enrollAndActivate(d, "UPG-1")
        _ = try Study.enrollAndActivate(d, "UPG-2")
        try d.request(.put, "/v1/me/days/\(Study.date(0))", token: token, body: ["weightMorningKg": 79.9])
        try d.request(.post, "/v1/patients/UPG-1/labs", token: d.adminToken, body: ["sodium": 140])
        _ = try Study.staff(d, "n.nurse", role: "nurse")
        _ = try Study.staff(d, "v.viewer", role: "viewer")
        d.stop()

        let trail = AuditTrailFile(dataDir: dataDir)
        try trail.downgradeBeforeSites()
        let before = try snapshot(trail)
        let auditBefore = try trail.rows()
        #expect(before[0].contains("UPG-2") && before[1].contains("v.viewer"), "\(before)")

        try d.start()
        #expect(try trail.sqlite([trail.path, "SELECT code FROM sites"]) == "main\n")
        #expect(try trail.sqlite([trail.path, "SELECT DISTINCT s.code FROM patients p JOIN sites s ON s.id = p.site_id"]) == "main\n")
        #expect(try trail.sqlite([trail.path, "SELECT name, all_sites FROM staff ORDER BY id"])
                == "bootstrap-admin|1\nn.nurse|1\nv.viewer|1\n")
        #expect(try snapshot(trail) == before, "nothing else changed")
        let audit = try trail.rows()
        #expect(Array(audit.prefix(auditBefore.count)).map(\.hash) == auditBefore.map(\.hash), "the trail as it was")
        #expect(try d.request(.get, "/v1/audit/verify", token: d.adminToken)["intact"] == true)
        // The journal says what the upgrade did: one notice at the first start, one naming the
        // migrations the upgrade applied, none at a start with the schema current.
        d.stop()
        try d.start()
        let notices = d.log.split(separator: "\n").filter { $0.contains("database created") || $0.contains("database migrated") }
        #expect(notices.count == 2 && notices[0].contains("database created") && notices[1].contains("database migrated")
                && notices[1].contains("v19_sites") && !notices[1].contains("v5_audit_hmac"), "\(notices)")
    }
}
