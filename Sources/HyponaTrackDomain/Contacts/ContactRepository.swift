import HyponaTrackCore
import SQLite

/// Reads and writes `contacts`. Callers own the transaction.
enum ContactRepository {
    private static let select = """
        SELECT c.id, p.study_id, c.contact_at, c.outcome, c.alert_id, c.staff, c.note
        FROM contacts c JOIN patients p ON p.id = c.patient_id
        """

    static func insert(_ db: Connection, patientId: Int64, alertId: Int64?, outcome: ContactOutcome, note: String?,
                       by actor: String, at ms: Int64) throws -> Int64 {
        try db.execute("""
            INSERT INTO contacts (patient_id, alert_id, outcome, note, contact_at, staff) VALUES (?, ?, ?, ?, ?, ?)
            """, [patientId, alertId, outcome.rawValue, note, ms, actor])
        return db.lastInsertRowID
    }

    static func load(_ db: Connection, id: Int64) throws -> ContactRecord? {
        try db.queryOne("\(select) WHERE c.id = ?", [id]).map(decode)
    }

    /// One patient's contacts, oldest first.
    static func list(_ db: Connection, patientId: Int64) throws -> [ContactRecord] {
        try db.query("\(select) WHERE c.patient_id = ? ORDER BY c.id", [patientId]).map(decode)
    }

    /// Every contact (or one patient's) by study ID, then oldest first: the CSV export.
    static func export(_ db: Connection, patientId: Int64?) throws -> [ContactRecord] {
        let filter = patientId == nil ? "" : "WHERE c.patient_id = ?"
        let params: [(any SQLiteBindable)?] = patientId.map { [$0] } ?? []
        return try db.query("\(select) \(filter) ORDER BY p.study_id_key, c.id", params).map(decode)
    }

    /// The contacts about these alerts, oldest first, by alert id.
    static func byAlert(_ db: Connection, alertIds: [Int64]) throws -> [Int64: [ContactRecord]] {
        guard !alertIds.isEmpty else { return [:] }
        var out: [Int64: [ContactRecord]] = [:]
        // In slices, well below SQLite's bound-parameter limit.
        for start in stride(from: 0, to: alertIds.count, by: 500) {
            let slice = Array(alertIds[start..<min(start + 500, alertIds.count)])
            let marks = Array(repeating: "?", count: slice.count).joined(separator: ", ")
            for contact in try db.query("\(select) WHERE c.alert_id IN (\(marks)) ORDER BY c.id", slice.map { $0 as (any SQLiteBindable)? }).map(decode) {
                if let alertId = contact.alertId { out[alertId, default: []].append(contact) }
            }
        }
        return out
    }

    private static func decode(_ r: Row) throws -> ContactRecord {
        guard let outcome = ContactOutcome(rawValue: try r.string(3)) else {
            throw StoreCorruption("contacts holds an unknown outcome \(try r.string(3).prefix(20))")
        }
        return ContactRecord(id: try r.int64(0), studyId: try r.string(1), at: try r.int64(2), outcome: outcome,
                             alertId: try r.optionalInt64(4), by: try r.string(5), note: try r.optionalString(6))
    }
}
