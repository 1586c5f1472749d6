import SQLite

/// What an admin does to the hook outbox (`hooks list|retry|enable`) and its figures for
/// `/metrics`. Callers own the transaction.
extension HookOutboxRepository {
    /// Events newest first: `state` one of `pending` (not yet tried), `failed` (tried, waiting
    /// for a retry), `dead`, `delivered`, or nil for any; `hook` nil for every hook.
    static func events(_ db: Connection, state: HookEventState?, hook: String?, limit: Int) throws -> [HookEventRow] {
        var conditions: [String] = [], arguments: [(any SQLiteBindable)?] = []
        switch state {
        case .pending?: conditions.append("state = 'pending' AND attempts = 0")
        case .failed?: conditions.append("state = 'pending' AND attempts > 0")
        case .dead?: conditions.append("state = 'dead'")
        case .delivered?: conditions.append("state = 'delivered'")
        case nil: break
        }
        if let hook { conditions.append("hook = ?"); arguments.append(hook) }
        arguments.append(limit)
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try db.query("""
            SELECT event_id, hook, type, state, attempts, created_at, next_attempt_at, delivered_at, last_error
            FROM hook_outbox \(filter) ORDER BY id DESC LIMIT ?
            """, arguments).map { r in
            let stored = try r.string(3), attempts = try r.int(4)
            let state: HookEventState = stored == "dead" ? .dead : stored == "delivered" ? .delivered : attempts > 0 ? .failed : .pending
            return HookEventRow(eventId: try r.string(0), hook: try r.string(1), type: try r.string(2), state: state, attempts: attempts,
                                createdAt: try r.int64(5), nextAttemptAt: state == .pending || state == .failed ? try r.int64(6) : nil,
                                deliveredAt: try r.optionalInt64(7), lastError: try r.optionalString(8))
        }
    }

    /// The hooks that hold `eventId` (empty: no such event).
    static func hooks(_ db: Connection, eventId: String) throws -> [(hook: String, state: String)] {
        try db.query("SELECT hook, state FROM hook_outbox WHERE event_id = ? ORDER BY hook", [eventId]).map { (try $0.string(0), try $0.string(1)) }
    }

    /// Makes the event's dead or failed row for `hook` due at `ms`, with another 24 hours
    /// before it is given up (`created_at` moves to `ms`). Returns whether there was one.
    static func retry(_ db: Connection, eventId: String, hook: String, at ms: Int64) throws -> Bool {
        try db.execute("""
            UPDATE hook_outbox SET state = 'pending', next_attempt_at = ?, created_at = ?
            WHERE event_id = ? AND hook = ? AND (state = 'dead' OR (state = 'pending' AND attempts > 0))
            """, [ms, ms, eventId, hook]) == 1
    }

    /// Enables a hook disabled by a 410; returns whether it was disabled.
    static func enable(_ db: Connection, hook: String) throws -> Bool {
        try db.execute("DELETE FROM hook_state WHERE hook = ? AND disabled_at IS NOT NULL", [hook]) == 1
    }

    /// Per hook: rows not yet tried, rows that failed and wait for a retry, dead letters
    /// (the `state` index: delivered rows, the many, are not read).
    static func backlog(_ db: Connection) throws -> [String: (pending: Int, failed: Int, dead: Int)] {
        var out: [String: (pending: Int, failed: Int, dead: Int)] = [:]
        for r in try db.query("""
            SELECT hook, SUM(state = 'pending' AND attempts = 0), SUM(state = 'pending' AND attempts > 0), SUM(state = 'dead')
            FROM hook_outbox WHERE state IN ('pending', 'dead') GROUP BY hook
            """) {
            out[try r.string(0)] = (try r.optionalInt(1) ?? 0, try r.optionalInt(2) ?? 0, try r.optionalInt(3) ?? 0)
        }
        return out
    }
}

/// Where a hook event stands for one hook.
public enum HookEventState: String, Sendable, CaseIterable {
    /// Queued, not yet tried.
    case pending
    /// Tried and failed; due again at `nextAttemptAt`.
    case failed
    /// Given up (after 24 hours, a permanent refusal, or a disabled endpoint): `hooks retry`.
    case dead
    case delivered
}

/// One event for one hook (`hooks list`).
public struct HookEventRow: Sendable, Equatable {
    public let eventId: String
    public let hook: String
    public let type: String
    public let state: HookEventState
    public let attempts: Int
    public let createdAt: Int64
    public let nextAttemptAt: Int64?
    public let deliveredAt: Int64?
    public let lastError: String?
}
