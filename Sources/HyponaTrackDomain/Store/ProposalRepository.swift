import HyponaTrackCore
import Imports
import SQLite

/// The SQL of `import_proposals` (ProposalsSchema). Callers run it inside their transaction.
enum ProposalRepository {
    static let columns = """
        p.id, p.patient_id, pt.study_id, p.source, p.field, p.date, p.value, p.replaces, p.status, p.source_key,
        p.lab_time, p.target_lab_id, p.lab_id, p.created_at, p.created_by, p.decided_at, p.decided_by, p.note,
        p.source_version_id, p.source_last_updated, p.source_issued
        """
    static let from = "FROM import_proposals p JOIN patients pt ON pt.id = p.patient_id"

    static func insert(_ db: Connection, _ p: Proposal) throws -> Int64 {
        try db.execute("""
            INSERT INTO import_proposals (patient_id, source, field, date, value, replaces, status, source_key, lab_time,
                                          target_lab_id, created_at, created_by, source_version_id, source_last_updated,
                                          source_issued)
            VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?)
            """, [p.patientId, p.source.rawValue, p.field.rawValue, p.date.description, p.value, p.replaces, p.sourceKey,
                  p.labTime?.description, p.targetLabId, p.createdAt, p.createdBy, p.sourceVersion.versionId,
                  p.sourceVersion.lastUpdated?.description, p.sourceVersion.issued?.description])
        return db.lastInsertRowID
    }

    static func load(_ db: Connection, id: Int64) throws -> Proposal? {
        try db.queryOne("SELECT \(columns) \(from) WHERE p.id = ?", [id]).map(proposal)
    }

    /// Proposals newest first, at most `limit`; `before`: only ids below it (the next page);
    /// nil filters mean all.
    static func list(_ db: Connection, status: ProposalStatus?, patientId: Int64?, scope: SiteScope = .allSites, before: Int64? = nil,
                     limit: Int) throws -> [Proposal] {
        var (sql, args) = filter(status: status, patientId: patientId, scope: scope)
        if let before { sql += " AND p.id < ?"; args.append(before) }
        args.append(limit)
        return try db.query("SELECT \(columns) \(from) \(sql) ORDER BY p.id DESC LIMIT ?", args).map(proposal)
    }

    /// How many proposals the filters match (every page of `list`).
    static func count(_ db: Connection, status: ProposalStatus?, patientId: Int64?, scope: SiteScope = .allSites) throws -> Int {
        let (sql, args) = filter(status: status, patientId: patientId, scope: scope)
        return try db.queryOne("SELECT COUNT(*) \(from) \(sql)", args)?.int(0) ?? 0
    }

    /// The WHERE clause of `list` and `count`: the same filters for the page and its total.
    private static func filter(status: ProposalStatus?, patientId: Int64?, scope: SiteScope) -> (String, [(any SQLiteBindable)?]) {
        var sql = "WHERE \(scope.condition("pt.site_id"))"
        var args: [(any SQLiteBindable)?] = []
        if let status { sql += " AND p.status = ?"; args.append(status.rawValue) }
        if let patientId { sql += " AND p.patient_id = ?"; args.append(patientId) }
        return (sql, args)
    }

    /// Every proposal made from one FHIR Observation for a patient, oldest first.
    static func forSourceKey(_ db: Connection, patientId: Int64, key: String) throws -> [Proposal] {
        try db.query("SELECT \(columns) \(from) WHERE p.patient_id = ? AND p.source_key = ? ORDER BY p.id", [patientId, key])
            .map(proposal)
    }

    /// The proposals of one patient, field and date from one source with `status`.
    static func with(_ status: ProposalStatus, _ db: Connection, patientId: Int64, source: ProposalSource, field: ProposalField,
                     date: LocalDate) throws -> [Proposal] {
        try db.query("""
            SELECT \(columns) \(from) WHERE p.patient_id = ? AND p.source = ? AND p.field = ? AND p.date = ? AND p.status = ?
            ORDER BY p.id
            """, [patientId, source.rawValue, field.rawValue, date.description, status.rawValue]).map(proposal)
    }

    /// Marks a pending proposal decided; false when it was no longer pending. Every decision
    /// names who made it: the nurse who confirmed, rejected, or the staff member whose import
    /// superseded or withdrew it.
    @discardableResult
    static func decide(_ db: Connection, id: Int64, status: ProposalStatus, by actor: String, note: String?, labId: Int64? = nil,
                       at ms: Int64) throws -> Bool {
        try db.execute("""
            UPDATE import_proposals SET status = ?, decided_at = ?, decided_by = ?, note = ?, lab_id = COALESCE(?, lab_id)
            WHERE id = ? AND status = 'pending'
            """, [status.rawValue, ms, actor, note, labId, id]) == 1
    }

    /// A live lab value's sodium (nil: deleted or not this patient's).
    static func liveLabSodium(_ db: Connection, patientId: Int64, labId: Int64) throws -> Double? {
        try db.queryOne("SELECT sodium FROM lab_values WHERE id = ? AND patient_id = ? AND deleted_at IS NULL",
                        [labId, patientId])?.double(0)
    }

    static func proposal(_ r: Row) throws -> Proposal {
        guard let source = ProposalSource(rawValue: try r.string(3)), let field = ProposalField(rawValue: try r.string(4)),
              let date = LocalDate(try r.string(5)), let status = ProposalStatus(rawValue: try r.string(8))
        else { throw SQLiteError(extendedCode: SQLiteError.Code.mismatch, message: "import_proposals row \(try r.int64(0)) does not parse") }
        var p = Proposal(id: try r.int64(0), patientId: try r.int64(1), studyId: try r.string(2), source: source, field: field,
                        date: date, value: try r.optionalDouble(6), replaces: try r.optionalDouble(7), status: status,
                        sourceKey: try r.optionalString(9), labTime: try r.optionalString(10).flatMap(Timestamp.init),
                        targetLabId: try r.optionalInt64(11), labId: try r.optionalInt64(12), createdAt: try r.int64(13),
                        createdBy: try r.string(14), decidedAt: try r.optionalInt64(15), decidedBy: try r.optionalString(16),
                        note: try r.optionalString(17))
        p.sourceVersion = SodiumObservation.Version(versionId: try r.optionalString(18),
                                                    lastUpdated: try r.optionalString(19).flatMap(Timestamp.init),
                                                    issued: try r.optionalString(20).flatMap(Timestamp.init))
        return p
    }
}
