import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import SQLite
import Synchronization

/// Reads and writes `patients`. Callers own the transaction.
enum PatientRepository {
    /// A patient row with its revision (`PatientsSchema.v3`), read as `SELECT \(columns) FROM \(joined)`.
    static let columns = "id, profile, enrolled_at, enrolled_by, activated_at, withdrawn_at, withdrawal_date, withdrawal_reason, revision, site_id"
    static let joined = "patients JOIN patient_revisions ON patient_id = id"

    /// `site`: the patient's site (nil: the column's default, the site `main`; upgrade tests
    /// insert into a database older than `v19_sites` this way).
    static func insert(_ db: Connection, profile: PatientProfile, site: Int64? = nil, by actor: String, at ms: Int64) throws -> Int64 {
        var values: [(any SQLiteBindable)?] = [profile.studyId, PatientRecord.key(profile.studyId), ModelText.profile(profile).text, ms, actor, ms]
        if let site { values.append(site) }
        try db.execute("""
            INSERT INTO patients (study_id, study_id_key, profile, enrolled_at, enrolled_by, updated_at\(site == nil ? "" : ", site_id"))
            VALUES (?, ?, ?, ?, ?, ?\(site == nil ? "" : ", ?"))
            """, values)
        return db.lastInsertRowID
    }

    static func exists(_ db: Connection, studyId: String) throws -> Bool {
        try db.queryOne("SELECT 1 FROM patients WHERE study_id_key = ?", [PatientRecord.key(studyId)]) != nil
    }

    static func load(_ db: Connection, id: Int64) throws -> PatientRecord? {
        try db.queryOne("SELECT \(columns) FROM \(joined) WHERE id = ?", [id]).map(decode)
    }

    /// The patient's revision now (nil: no such patient): whether data read earlier still holds.
    static func revision(_ db: Connection, id: Int64) throws -> Int64? {
        try db.queryOne("SELECT revision FROM patient_revisions WHERE patient_id = ?", [id])?.int64(0)
    }

    /// Every patient's id and revision, in `all`'s order (by study ID).
    static func revisions(_ db: Connection) throws -> [(id: Int64, revision: Int64)] {
        try db.query("SELECT id, revision FROM \(joined) ORDER BY study_id_key").map { (id: try $0.int64(0), revision: try $0.int64(1)) }
    }

    static func load(_ db: Connection, studyId: String) throws -> PatientRecord? {
        try db.queryOne("SELECT \(columns) FROM \(joined) WHERE study_id_key = ?", [PatientRecord.key(studyId)]).map(decode)
    }

    static func all(_ db: Connection) throws -> [PatientRecord] {
        try db.query("SELECT \(columns) FROM \(joined) ORDER BY study_id_key").map(decode)
    }

    /// The patients of the sites `scope` reaches.
    static func all(_ db: Connection, scope: SiteScope) throws -> [PatientRecord] {
        try db.query("SELECT \(columns) FROM \(joined) WHERE \(scope.condition("site_id")) ORDER BY study_id_key").map(decode)
    }

    /// Patients enrolled and not withdrawn (for the daemon's status line).
    static func countEnrolled(_ db: Connection) throws -> Int {
        try db.queryOne("SELECT COUNT(*) FROM patients WHERE withdrawn_at IS NULL")?.int(0) ?? 0
    }

    static func updateProfile(_ db: Connection, id: Int64, profile: PatientProfile, at ms: Int64) throws {
        TokenCache.credentialsChanged(db)   // the patient token's lifetime or validity
        try db.execute("UPDATE patients SET profile = ?, updated_at = ? WHERE id = ?",
                       [ModelText.profile(profile).text, ms, id])
    }

    static func withdraw(_ db: Connection, id: Int64, date: LocalDate, reason: String, at ms: Int64) throws {
        TokenCache.credentialsChanged(db)   // the patient token's lifetime or validity
        try db.execute("""
            UPDATE patients SET withdrawn_at = ?, withdrawal_date = ?, withdrawal_reason = ?, updated_at = ?
            WHERE id = ? AND withdrawn_at IS NULL
            """, [ms, date.description, reason, ms, id])
    }

    /// Decoded profiles by patient id and stored text: decoding the JSON on every submission was
    /// 9 % of the writer's time in the ingest benchmark; the text comparison keeps it exact.
    /// Bounded like the other caches: past `decodedCapacity` patients it starts over.
    static let decoded = Mutex<[Int64: (text: String, profile: PatientProfile)]>([:])
    static let decodedCapacity = 2048

    static func decode(_ row: Row) throws -> PatientRecord {
        let id = try row.int64("id")
        let text = try row.string("profile")
        let profile: PatientProfile
        if let cached = decoded.withLock({ $0[id] }), cached.text == text {
            profile = cached.profile
        } else {
            profile = try ModelText.profile(from: text)
            decoded.withLock { $0.set((text, profile), forKey: id, capacity: decodedCapacity) }
        }
        return PatientRecord(id: id, profile: profile, enrolledAt: try row.int64("enrolled_at"),
                             enrolledBy: try row.string("enrolled_by"), activatedAt: try row.optionalInt64("activated_at"),
                             withdrawnAt: try row.optionalInt64("withdrawn_at"),
                             withdrawalDate: try row.optionalString("withdrawal_date").flatMap { LocalDate($0) },
                             withdrawalReason: try row.optionalString("withdrawal_reason"), revision: try row.int64("revision"),
                             siteId: try row.int64("site_id"))
    }
}
