import HTJSON
import SQLite

extension StudyService {
    /// `GET /v1/audit?limit=&after=&subject=`.
    public func auditEntries(limit: String?, after: String?, subject: String?) throws -> JSONValue {
        let n = try limit.map { text -> Int in
            guard let n = Int(text), (1...1000).contains(n) else { throw DomainError.invalid("limit", "an integer 1–1000") }
            return n
        } ?? 100
        let afterSeq = try after.map { text -> Int64 in
            guard let s = Int64(text), s >= 0 else { throw DomainError.invalid("after", "a sequence number ≥ 0") }
            return s
        }
        if let subject, subject.isEmpty || subject.count > 200 { throw DomainError.invalid("subject", "1–200 characters") }
        return try database.read { db in .array(try AuditLog.list(db, limit: n, afterSeq: afterSeq, subject: subject).map(\.json)) }
    }

    /// `GET /v1/audit/verify`: recomputes the chain in one read snapshot.
    public func verifyAudit() throws -> JSONValue {
        let v = try database.read { db in try db.transaction(.deferred) { try AuditLog.verify(db) } }
        return ["intact": .bool(v.isIntact), "rowsChecked": .int(v.rowsChecked),
                "firstBrokenSeq": v.firstBrokenSeq.map { .number(Double($0)) } ?? .null, "reason": .string(v.reason),
                "lastSeq": v.lastSeq.map { .number(Double($0)) } ?? .null, "lastHash": .string(v.lastHash)]
    }
}
