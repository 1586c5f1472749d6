import HTJSON
import SQLite

/// One queued REDCap row.
struct OutboxRow: Sendable {
    var id: Int64
    var record: String
    var instrument: String
    var instance: Int
    var payload: String
    var version: Int64
    var attempts: Int
}

/// Reads and writes `sync_outbox` and `sync_state`. Callers own the transaction.
enum OutboxRepository {
    /// Queues a row, replacing a pending (or dead) older version of the same record, instrument
    /// and instance (instance 0 for the baseline).
    static func enqueue(_ db: Connection, record: String, instrument: String, instance: Int, row: REDCapMapper.Row,
                        at ms: Int64) throws {
        let payload = try JSONTextEncoder.string(REDCapRowPayload(row: row))
        try db.execute("""
            INSERT INTO sync_outbox (record, record_key, instrument, instance, payload, enqueued_at, updated_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)
            ON CONFLICT (record_key, instrument, instance) DO UPDATE SET
                record = ?1, payload = ?5, version = version + 1, updated_at = ?6,
                enqueued_at = CASE WHEN state = 'dead' THEN ?6 ELSE enqueued_at END,
                state = 'pending', attempts = 0, next_attempt_at = 0, last_error = NULL
            """, [record, record.lowercased(), instrument, instance, payload, ms])
    }

    /// Pending rows due now, longest due first (then oldest). The order follows the
    /// `sync_outbox_due` index, so a batch is read without sorting every pending row (a drain of
    /// n rows stays O(n), not O(n²)).
    static func due(_ db: Connection, now ms: Int64, limit: Int) throws -> [OutboxRow] {
        try db.query("""
            SELECT id, record, instrument, instance, payload, version, attempts FROM sync_outbox
            WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?
            """, [ms, limit]).map { r in
            OutboxRow(id: try r.int64("id"), record: try r.string("record"), instrument: try r.string("instrument"),
                      instance: try r.int("instance"),
                      payload: try r.string("payload"), version: try r.int64("version"), attempts: try r.int("attempts"))
        }
    }

    /// Marks rows as put on the wire at `ms`, before the request. A row still marked from an
    /// earlier request (the daemon died waiting for its answer) has an unknown outcome since then.
    static func markInFlight(_ db: Connection, _ rows: [OutboxRow], at ms: Int64) throws {
        for row in rows {
            try db.execute("""
                UPDATE sync_outbox SET uncertain_since = COALESCE(uncertain_since, in_flight_at), in_flight_at = ? WHERE id = ?
                """, [ms, row.id])
        }
    }

    /// The request for these rows got a definite answer that applied nothing (a rejection).
    static func concluded(_ db: Connection, _ rows: [OutboxRow]) throws {
        for row in rows { try db.execute("UPDATE sync_outbox SET in_flight_at = NULL WHERE id = ?", [row.id]) }
    }

    /// Removes rows REDCap confirmed, unless a newer version was queued meanwhile, or an earlier
    /// request for the row has an unknown outcome: REDCap may still apply that one, so the row is
    /// sent once more `settleMs` after it started. Returns how many rows wait for that.
    @discardableResult
    static func markSent(_ db: Connection, _ rows: [OutboxRow], settleMs: Int64, at ms: Int64) throws -> Int {
        var confirming = 0
        for row in rows {
            if try db.execute("DELETE FROM sync_outbox WHERE id = ? AND version = ? AND uncertain_since IS NULL", [row.id, row.version]) == 1 {
                continue
            }
            confirming += try db.execute("""
                UPDATE sync_outbox SET in_flight_at = NULL, uncertain_since = NULL, attempts = 0,
                    next_attempt_at = MAX(?, uncertain_since + ?)
                WHERE id = ? AND version = ? AND uncertain_since IS NOT NULL
                """, [ms, settleMs, row.id, row.version])
            // A newer version is pending: this request is settled, an older unknown one is not.
            try db.execute("UPDATE sync_outbox SET in_flight_at = NULL WHERE id = ? AND version <> ?", [row.id, row.version])
        }
        try db.execute("""
            UPDATE sync_state SET last_success_at = ?, consecutive_failures = 0, sent_rows = sent_rows + ? WHERE id = 1
            """, [ms, rows.count])
        return confirming
    }

    /// Transient failure: retry these rows later. Whether REDCap applied the request is unknown
    /// (a timeout, a dropped connection, a 5xx, an error page), so its rows are confirmed once
    /// more after a later success (`markSent`).
    static func postpone(_ db: Connection, _ rows: [OutboxRow], until next: Int64, error: String, at ms: Int64) throws {
        for row in rows {
            try db.execute("""
                UPDATE sync_outbox SET uncertain_since = COALESCE(uncertain_since, in_flight_at), in_flight_at = NULL WHERE id = ?
                """, [row.id])
            try db.execute("""
                UPDATE sync_outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ? AND version = ?
                """, [next, error, row.id, row.version])
        }
        try db.execute("""
            UPDATE sync_state SET last_failure_at = ?, last_failure = ?, consecutive_failures = consecutive_failures + 1 WHERE id = 1
            """, [ms, error])
    }

    /// A row REDCap rejected: kept with REDCap's message until a person acts.
    static func deadLetter(_ db: Connection, _ row: OutboxRow, error: String, at ms: Int64) throws {
        try db.execute("""
            UPDATE sync_outbox SET state = 'dead', attempts = attempts + 1, last_error = ?, updated_at = ?, in_flight_at = NULL
            WHERE id = ? AND version = ?
            """, [error, ms, row.id, row.version])
    }

    /// Whether the sync is halted (one row: cheap enough for every cycle, unlike `status`).
    static func isHalted(_ db: Connection) throws -> Bool {
        try db.queryOne("SELECT halted FROM sync_state WHERE id = 1")?.int("halted") == 1
    }

    static func halt(_ db: Connection, reason: String, at ms: Int64) throws {
        try db.execute("UPDATE sync_state SET halted = 1, halt_reason = ?, halted_at = ? WHERE id = 1", [reason, ms])
    }

    /// Stores whether `sync.unhealthy` was raised for the current backlog; whether that changed.
    static func markUnhealthyReported(_ db: Connection, _ reported: Bool) throws -> Bool {
        try db.execute("UPDATE sync_state SET unhealthy_reported = ?1 WHERE id = 1 AND unhealthy_reported <> ?1", [reported ? 1 : 0]) == 1
    }

    static func resume(_ db: Connection) throws {
        try db.execute("UPDATE sync_state SET halted = 0, halt_reason = NULL, halted_at = NULL, consecutive_failures = 0 WHERE id = 1")
        try db.execute("UPDATE sync_outbox SET next_attempt_at = 0 WHERE state = 'pending'")
    }

    /// Makes failed rows due now; with `dead`, dead letters become pending again too.
    @discardableResult
    static func retry(_ db: Connection, dead: Bool) throws -> Int {
        if dead {
            return try db.execute("UPDATE sync_outbox SET state = 'pending', attempts = 0, next_attempt_at = 0 WHERE state = 'dead'", [])
        }
        return try db.execute("UPDATE sync_outbox SET next_attempt_at = 0 WHERE state = 'pending'", [])
    }

    /// Every queued row, pending or dead, by record (lower-cased), instrument and instance.
    static func queuedKeys(_ db: Connection) throws -> Set<QueuedKey> {
        Set(try db.query("SELECT record_key, instrument, instance FROM sync_outbox").map {
            QueuedKey(record: try $0.string("record_key"), instrument: try $0.string("instrument"), instance: try $0.int("instance"))
        })
    }

    struct QueuedKey: Hashable, Sendable {
        var record: String
        var instrument: String
        var instance: Int
    }

    typealias Status = SyncOutboxStatus


    static func status(_ db: Connection, deadLimit: Int = 50) throws -> Status {
        let counts = try db.queryOne("""
            SELECT (SELECT COUNT(*) FROM sync_outbox WHERE state = 'pending') AS pending,
                   (SELECT COUNT(*) FROM sync_outbox WHERE state = 'dead') AS dead,
                   (SELECT MIN(enqueued_at) FROM sync_outbox WHERE state = 'pending') AS oldest
            """)!
        let s = try db.queryOne("SELECT * FROM sync_state WHERE id = 1")!
        let dead = try db.query("""
            SELECT record, instrument, instance, last_error FROM sync_outbox WHERE state = 'dead' ORDER BY id LIMIT ?
            """, [deadLimit]).map {
            (record: try $0.string("record"), instrument: try $0.string("instrument"), instance: try $0.int("instance"),
             error: try $0.optionalString("last_error"))
        }
        return Status(pending: try counts.int("pending"), dead: try counts.int("dead"), oldestPendingAt: try counts.optionalInt64("oldest"),
                      halted: try s.int("halted") == 1, haltReason: try s.optionalString("halt_reason"),
                      haltedAt: try s.optionalInt64("halted_at"), lastSuccessAt: try s.optionalInt64("last_success_at"),
                      lastFailureAt: try s.optionalInt64("last_failure_at"), lastFailure: try s.optionalString("last_failure"),
                      consecutiveFailures: try s.int("consecutive_failures"), sentRows: try s.int("sent_rows"),
                      unhealthyReported: try s.int("unhealthy_reported") == 1, deadLetters: dead)
    }
}

public struct SyncOutboxStatus: Sendable {
    public var pending: Int
    public var dead: Int
    public var oldestPendingAt: Int64?
    public var halted: Bool
    public var haltReason: String?
    public var haltedAt: Int64?
    public var lastSuccessAt: Int64?
    public var lastFailureAt: Int64?
    public var lastFailure: String?
    public var consecutiveFailures: Int
    public var sentRows: Int
    /// Whether `sync.unhealthy` was raised for the current backlog.
    public var unhealthyReported: Bool
    public var deadLetters: [(record: String, instrument: String, instance: Int, error: String?)]
}

/// A REDCap row as the outbox stores it: `{field: "value"}` in the mapper's order.
struct REDCapRowPayload: Encodable {
    let row: REDCapMapper.Row

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NamedKey.self)
        for (field, value) in row { try container.encode(value, forKey: NamedKey(field)) }
    }
}
