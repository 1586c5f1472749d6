import SQLite

/// `GET /v1/audit`: a page of the trail, in chain order.
public struct AuditQuery: Sendable, Equatable {
    /// At most this many entries (1–1000; the route refuses others).
    public var limit: Int
    /// Only entries after this `seq` (paging); nil: from the start.
    public var afterSeq: Int64?
    /// Only entries about this subject (a study ID, `staff:<name>`…).
    public var subject: String?
    /// A site-bound reader (docs/product.md, settled S) sees only the rows about the patients of
    /// their sites and their own actions (`reader`, an actor string); all-sites staff see every row.
    public var scope: SiteScope = .allSites
    public var reader: String? = nil

    public init(limit: Int = 100, afterSeq: Int64? = nil, subject: String? = nil, scope: SiteScope = .allSites, reader: String? = nil) {
        self.limit = limit
        self.afterSeq = afterSeq
        self.subject = subject
        self.scope = scope
        self.reader = reader
    }
}

/// `POST /v1/audit/checkpoints` (admin).
public struct CreateCheckpoint: Sendable {
    public var actor: String

    public init(actor: String) {
        self.actor = actor
    }
}

/// Reading and checking the audit trail (writing it is part of every service's transaction),
/// and checkpoints on demand. Listing and verifying run on the long-read pool, so a burst of
/// them cannot hold up authentication.
public final class AuditService: Sendable {
    let transactions: Transactions
    let key: AuditKey
    let checkpoints: AuditCheckpoints
    let clock: any ServerClock

    init(transactions: Transactions, key: AuditKey, checkpoints: AuditCheckpoints, clock: any ServerClock) {
        self.transactions = transactions
        self.key = key
        self.checkpoints = checkpoints
        self.clock = clock
    }

    public func entries(_ query: AuditQuery) throws -> [AuditEntry] {
        try transactions.longRead { db in try AuditLog.list(db, limit: query.limit, afterSeq: query.afterSeq, subject: query.subject,
                                                                   scope: query.scope, reader: query.reader) }
    }

    /// Recomputes the chain in one read snapshot; with a checkpoint, also compares with it.
    public func verify(checkpoint: AuditCheckpoint? = nil) throws -> AuditVerification {
        try transactions.longRead { db in try AuditLog.verify(db, key: key, checkpoint: checkpoint) }
    }

    /// Appends an `audit.checkpoint` row and queues its event to the subscribed hooks.
    public func checkpoint(_ command: CreateCheckpoint) throws -> (checkpoint: AuditCheckpoint, hooks: [String]) {
        let ms = epochMilliseconds(clock.now())
        let checkpoint = try transactions.write { db in
            try checkpoints.checkpoint(db, at: ms, actor: command.actor, reason: .requested)
        }
        return (checkpoint, checkpoints.subscribers)
    }
}
