import HyponaTrackCore
import SQLite

/// Reads and writes `outcomes`. Callers own the transaction.
enum OutcomeRepository {
    private static let select = """
        SELECT o.id, p.study_id, o.kind, o.date, o.pod, o.sodium, o.note, o.source, o.lab_id, o.status, o.recorded_at,
               o.recorded_by, o.withdrawn_at, o.instance, o.patient_id
        FROM outcomes o JOIN patients p ON p.id = o.patient_id
        """

    struct New {
        var kind: OutcomeKind
        var date: LocalDate
        var pod: Int
        var sodium: Double?
        var note: String?
        var source: OutcomeSource
        var labId: Int64?
    }

    static func insert(_ db: Connection, patientId: Int64, _ o: New, by actor: String, at ms: Int64) throws -> Int64 {
        let earlier = try db.queryOne("SELECT COUNT(*) FROM outcomes WHERE patient_id = ?", [patientId])?.int(0) ?? 0
        try db.execute("""
            INSERT INTO outcomes (patient_id, kind, date, pod, sodium, note, source, lab_id, recorded_at, recorded_by, instance)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [patientId, o.kind.rawValue, o.date.description, o.pod, o.sodium, o.note, o.source.rawValue, o.labId, ms, actor,
                  earlier + 1])
        return db.lastInsertRowID
    }

    static func load(_ db: Connection, id: Int64) throws -> OutcomeRecord? {
        try db.queryOne("\(select) WHERE o.id = ?", [id]).map(decode)
    }

    /// One patient's outcomes, by date then as recorded.
    static func list(_ db: Connection, patientId: Int64) throws -> [OutcomeRecord] {
        try db.query("\(select) WHERE o.patient_id = ? ORDER BY o.date, o.id", [patientId]).map(decode)
    }

    /// Every outcome (or one patient's) by study ID, then as recorded: the CSV export and the report.
    static func export(_ db: Connection, patientId: Int64?) throws -> [OutcomeRecord] {
        let filter = patientId == nil ? "" : "WHERE o.patient_id = ?"
        let params: [(any SQLiteBindable)?] = patientId.map { [$0] } ?? []
        return try db.query("\(select) \(filter) ORDER BY p.study_id_key, o.id", params).map(decode)
    }

    /// Every outcome by patient row id (the outcome report reads them all at once).
    static func byPatient(_ db: Connection) throws -> [Int64: [OutcomeRecord]] {
        var out: [Int64: [OutcomeRecord]] = [:]
        for row in try db.query("\(select) ORDER BY o.patient_id, o.date, o.id") {
            out[try row.int64(14), default: []].append(try decode(row))
        }
        return out
    }

    /// Whether a recorded hyponatremia outcome of the patient lies within `days` of `date`
    /// (either side, inclusive): one episode, not another (docs/product.md, settled O).
    static func hasEpisode(_ db: Connection, patientId: Int64, near date: LocalDate, days: Int) throws -> Bool {
        try db.queryOne("""
            SELECT 1 FROM outcomes WHERE patient_id = ? AND kind = 'hyponatremia' AND status = 'recorded' AND date BETWEEN ? AND ?
            LIMIT 1
            """, [patientId, date.adding(days: -days).description, date.adding(days: days).description]) != nil
    }

    /// The recorded outcome of a lab value, if any.
    static func ofLab(_ db: Connection, labId: Int64) throws -> OutcomeRecord? {
        try db.queryOne("\(select) WHERE o.lab_id = ? AND o.status = 'recorded'", [labId]).map(decode)
    }

    static func withdraw(_ db: Connection, id: Int64, at ms: Int64) throws {
        try db.execute("UPDATE outcomes SET status = 'withdrawn', withdrawn_at = ? WHERE id = ?", [ms, id])
    }

    private static func decode(_ r: Row) throws -> OutcomeRecord {
        guard let kind = OutcomeKind(rawValue: try r.string(2)), let date = LocalDate(try r.string(3)),
              let source = OutcomeSource(rawValue: try r.string(7)), let status = OutcomeStatus(rawValue: try r.string(9))
        else { throw StoreCorruption("outcomes holds an unknown kind, date, source or status in row \(try r.int64(0))") }
        return OutcomeRecord(id: try r.int64(0), studyId: try r.string(1), kind: kind, date: date, pod: try r.int(4),
                             sodium: try r.optionalDouble(5), note: try r.optionalString(6), source: source,
                             labId: try r.optionalInt64(8), status: status, recordedAt: try r.int64(10),
                             recordedBy: try r.string(11), withdrawnAt: try r.optionalInt64(12), instance: try r.int(13))
    }
}

extension OutcomeRepository {
    struct LowLab {
        var id: Int64
        var date: LocalDate
        var sodium: Double
        var enteredBy: String
    }

    /// The patient's live lab values below `below` between two dates that no recorded outcome
    /// was made from, by date then as entered.
    static func lowLabsWithoutOutcome(_ db: Connection, patientId: Int64, from: LocalDate, to: LocalDate,
                                      below: Double) throws -> [LowLab] {
        try db.query("""
            SELECT l.id, l.date, l.sodium, l.entered_by FROM lab_values l
            WHERE l.patient_id = ? AND l.date BETWEEN ? AND ? AND l.deleted_at IS NULL AND l.sodium < ?
              AND NOT EXISTS (SELECT 1 FROM outcomes o WHERE o.lab_id = l.id AND o.status = 'recorded')
            ORDER BY l.date, l.id
            """, [patientId, from.description, to.description, below]).compactMap { r in
            guard let date = LocalDate(try r.string(1)) else { return nil }
            return LowLab(id: try r.int64(0), date: date, sodium: try r.double(2), enteredBy: try r.string(3))
        }
    }
}
