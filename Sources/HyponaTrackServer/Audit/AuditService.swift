import SQLite

/// `GET /v1/audit`: a page of the trail, in chain order.
public struct AuditQuery: Sendable, Equatable {
    /// At most this many entries (1–1000; the route refuses others).
    public var limit: Int
    /// Only entries after this `seq` (paging); nil: from the start.
    public var afterSeq: Int64?
    /// Only entries about this subject (a study ID, `staff:<name>`…).
    public var subject: String?

    public init(limit: Int = 100, afterSeq: Int64? = nil, subject: String? = nil) {
        self.limit = limit
        self.afterSeq = afterSeq
        self.subject = subject
    }
}

/// Reading and checking the audit trail (writing it is part of every service's transaction).
public final class AuditService: Sendable {
    let transactions: Transactions

    init(transactions: Transactions) {
        self.transactions = transactions
    }

    public func entries(_ query: AuditQuery) throws -> [AuditEntry] {
        try transactions.read { db in try AuditLog.list(db, limit: query.limit, afterSeq: query.afterSeq, subject: query.subject) }
    }

    /// Recomputes the chain in one read snapshot.
    public func verify() throws -> AuditVerification {
        try transactions.read { db in try db.transaction(.deferred) { try AuditLog.verify(db) } }
    }
}
