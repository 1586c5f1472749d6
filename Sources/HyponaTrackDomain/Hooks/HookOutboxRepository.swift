import SQLite

/// Reads and writes `hook_outbox` and `hook_state`. Callers own the transaction.
enum HookOutboxRepository {
    /// A pending row whose attempt is due.
    struct Due: Sendable {
        let id: Int64, createdAt: Int64
        /// The stable webhook-id and the event JSON, as queued.
        let eventId: String, body: String
        /// Attempts made so far.
        let attempts: Int
    }

    typealias DeadLetter = HookDeadLetter


    typealias Summary = HookOutboxSummary


    /// Queues one event for one hook; a second insert of the same event and hook is ignored.
    static func insert(_ db: Connection, eventId: String, hook: String, type: String, body: String, at ms: Int64) throws {
        try db.execute("INSERT OR IGNORE INTO hook_outbox (event_id, hook, type, body, created_at) VALUES (?, ?, ?, ?, ?)",
                       [eventId, hook, type, body, ms])
    }

    /// Why the hook is disabled (a 410), or nil while it is enabled.
    static func disabledReason(_ db: Connection, hook: String) throws -> String? {
        try db.queryOne("SELECT disabled_reason FROM hook_state WHERE hook = ? AND disabled_at IS NOT NULL", [hook])
            .map { try $0.optionalString(0) ?? "disabled" }
    }

    /// The hook's oldest pending row due at `ms`, leaving out `excluded` (rows whose last
    /// outcome is not written yet: ``UnrecordedHookOutcomes``).
    static func nextDue(_ db: Connection, hook: String, now ms: Int64, excluding excluded: Set<Int64> = []) throws -> Due? {
        let rows = try db.query("""
            SELECT id, event_id, body, attempts, created_at FROM hook_outbox
            WHERE hook = ? AND state = 'pending' AND next_attempt_at <= ? ORDER BY id LIMIT ?
            """, [hook, ms, excluded.count + 1])
        for r in rows {
            let id = try r.int64(0)
            if excluded.contains(id) { continue }
            return Due(id: id, createdAt: try r.int64(4), eventId: try r.string(1), body: try r.string(2), attempts: try r.int(3))
        }
        return nil
    }

    /// `attempts`: the attempts made so far, this one included (set, not added: an outcome
    /// written late may stand for more than one attempt).
    static func markDelivered(_ db: Connection, id: Int64, at ms: Int64, attempts: Int) throws {
        try db.execute("UPDATE hook_outbox SET state = 'delivered', delivered_at = ?, attempts = ?, last_error = NULL WHERE id = ?",
                       [ms, attempts, id])
    }

    /// Records a failed attempt and sets the next one.
    static func postpone(_ db: Connection, id: Int64, until ms: Int64, error: String, attempts: Int) throws {
        try db.execute("UPDATE hook_outbox SET attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ?",
                       [attempts, ms, error, id])
    }

    /// Records the last attempt and gives the row up (a dead letter).
    static func markDead(_ db: Connection, id: Int64, reason: String, attempts: Int) throws {
        try db.execute("UPDATE hook_outbox SET state = 'dead', attempts = ?, last_error = ? WHERE id = ?", [attempts, reason, id])
    }

    /// Disables the hook for good (it answered 410 Gone).
    static func disable(_ db: Connection, hook: String, at ms: Int64, reason: String) throws {
        try db.execute("""
            INSERT INTO hook_state (hook, disabled_at, disabled_reason) VALUES (?, ?, ?)
            ON CONFLICT (hook) DO UPDATE SET disabled_at = excluded.disabled_at, disabled_reason = excluded.disabled_reason
            """, [hook, ms, reason])
    }

    /// The hook's figures, its state and its latest 20 dead letters (newest first).
    static func summary(_ db: Connection, hook: String) throws -> Summary {
        var s = Summary()
        if let counts = try db.queryOne("""
            SELECT SUM(state = 'pending'), SUM(state = 'delivered'), SUM(state = 'dead'), MIN(CASE WHEN state = 'pending' THEN created_at END)
            FROM hook_outbox WHERE hook = ?
            """, [hook]) {
            s.pending = try counts.optionalInt(0) ?? 0
            s.delivered = try counts.optionalInt(1) ?? 0
            s.dead = try counts.optionalInt(2) ?? 0
            s.oldestPendingAt = try counts.optionalInt64(3)
        }
        if let state = try db.queryOne("SELECT disabled_at, disabled_reason FROM hook_state WHERE hook = ?", [hook]) {
            s.disabledAt = try state.optionalInt64(0)
            s.disabledReason = try state.optionalString(1)
        }
        s.deadLetters = try db.query("""
            SELECT event_id, type, last_error, attempts FROM hook_outbox WHERE hook = ? AND state = 'dead' ORDER BY id DESC LIMIT 20
            """, [hook]).map { r in
            DeadLetter(eventId: try r.string(0), type: try r.string(1), error: try r.optionalString(2), attempts: try r.int(3))
        }
        s.lastError = try db.queryOne("SELECT last_error FROM hook_outbox WHERE hook = ? AND last_error IS NOT NULL ORDER BY id DESC LIMIT 1",
                                      [hook]).flatMap { try $0.optionalString(0) }
        return s
    }
}

/// One hook's outbox in figures.
public struct HookOutboxSummary: Sendable {
    public var pending = 0
    public var delivered = 0
    public var dead = 0
    public var oldestPendingAt: Int64?
    public var disabledAt: Int64?
    public var disabledReason: String?
    public var lastError: String?
    public var deadLetters: [HookDeadLetter] = []
}

/// One hook's delivery status (`GET /v1/hooks/status`, `hyponatrack hooks status`).
public struct HookStatus: Sendable {
    public let name: String
    /// `webhook`, `email` or `command`.
    public let type: String
    /// The non-alert events it hears.
    public let events: [String]
    public let summary: HookOutboxSummary

    init(hook: HookConfiguration, summary: HookOutboxSummary) {
        name = hook.name
        switch hook.kind { case .webhook: type = "webhook"; case .email: type = "email"; case .command: type = "command" }
        events = hook.events.map(\.rawValue)
        self.summary = summary
    }
}

/// A dead letter, as `hyponatrack hooks status` lists it.
public struct HookDeadLetter: Sendable {
    public let eventId: String
    public let type: String
    public let error: String?
    public let attempts: Int
}
