import Foundation
import Synchronization
import HTJSON
import SQLite

/// Delivers the hook outbox: one worker thread per hook, so a slow or failing endpoint never
/// holds up another (or the API). Retries follow the Standard Webhooks schedule (5 s, 5 min,
/// 30 min, 2 h, 5 h, 10 h, …, or the receiver's `retry-after`) for up to 24 hours, then the row
/// is a dead letter shown by `hyponatrack hooks status`. A 410 disables the endpoint. Delivered
/// rows are kept (marked) so a restart never sends them again; an in-flight row is re-sent after
/// a crash with the same event id, which receivers de-duplicate.
final class HookDelivery: Sendable {
    static let schedule: [Double] = [5, 300, 1800, 7200, 18_000, 36_000]
    static let giveUpAfterSeconds: Double = 24 * 3600

    let database: Database
    let transports: [String: any HookTransport]
    let logger: Logger
    let clock: any ServerClock
    private let wakeups: [String: NSCondition]
    private let stopping = Mutex(false)
    private let running = Mutex(0)

    init(database: Database, transports: [String: any HookTransport], logger: Logger, clock: any ServerClock) {
        self.database = database
        self.transports = transports
        self.logger = logger
        self.clock = clock
        wakeups = Dictionary(uniqueKeysWithValues: transports.keys.map { ($0, NSCondition()) })
    }

    func start() {
        for name in transports.keys.sorted() {
            running.withLock { $0 += 1 }
            let thread = Thread { [self] in
                loop(name)
                running.withLock { $0 -= 1 }
            }
            thread.name = "hook-\(name)".prefix(15).description
            thread.start()
        }
    }

    func wake() {
        for c in wakeups.values { c.lock(); c.signal(); c.unlock() }
    }

    func stop(timeout: Double = 35) {
        stopping.withLock { $0 = true }
        wake()
        let deadline = Date().addingTimeInterval(timeout)
        while running.withLock({ $0 }) > 0 && Date() < deadline { usleep(5_000) }
    }

    private func loop(_ name: String) {
        while !stopping.withLock({ $0 }) {
            let worked = (try? deliverNext(name)) ?? false
            if !worked {
                let c = wakeups[name]!
                c.lock()
                _ = c.wait(until: Date().addingTimeInterval(1))
                c.unlock()
            }
        }
    }

    /// Delivers the oldest due row of one hook; returns whether there was one.
    @discardableResult
    func deliverNext(_ name: String) throws -> Bool {
        let now = clock.now()
        let ms = epochMilliseconds(now)
        struct Due { let id: Int64; let eventId: String; let body: String; let attempts: Int; let created: Int64 }
        let (due, disabled): (Due?, String?) = try database.read { db in
            let disabled = try db.queryOne("SELECT disabled_reason FROM hook_state WHERE hook = ? AND disabled_at IS NOT NULL", [name])
                .map { try $0.optionalString(0) ?? "disabled" }
            let row = try db.queryOne("""
                SELECT id, event_id, body, attempts, created_at FROM hook_outbox
                WHERE hook = ? AND state = 'pending' AND next_attempt_at <= ? ORDER BY id LIMIT 1
                """, [name, ms]).map { Due(id: try $0.int64(0), eventId: try $0.string(1), body: try $0.string(2),
                                          attempts: try $0.int(3), created: try $0.int64(4)) }
            return (row, disabled)
        }
        guard let due else { return false }
        if let disabled {
            try database.write { db in try markDead(db, due.id, "the endpoint is disabled: \(disabled)", ms) }
            return true
        }
        guard let transport = transports[name] else { return false }
        let event = (try? JSONParser.parse(due.body)) ?? .null
        let result = transport.deliver(eventId: due.eventId, timestamp: Int64(now), body: Array(due.body.utf8), event: event)
        let after = epochMilliseconds(clock.now())
        try database.write { db in
            switch result {
            case .delivered:
                try db.execute("UPDATE hook_outbox SET state = 'delivered', delivered_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ?",
                               [after, due.id])
            case .retry(let reason, let retryAfter):
                let age = Double(after - due.created) / 1000
                if age >= Self.giveUpAfterSeconds {
                    try markDead(db, due.id, "gave up after 24 h: \(reason)", after)
                } else {
                    let step = Self.schedule[min(due.attempts, Self.schedule.count - 1)]
                    let wait = retryAfter.map { min(max($0, 1), 86_400) } ?? step * Double.random(in: 0.9...1.1)
                    try db.execute("UPDATE hook_outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?",
                                   [after + Int64(wait * 1000), reason, due.id])
                }
            case .gone(let reason):
                try db.execute("INSERT INTO hook_state (hook, disabled_at, disabled_reason) VALUES (?, ?, ?) ON CONFLICT (hook) DO UPDATE SET disabled_at = excluded.disabled_at, disabled_reason = excluded.disabled_reason",
                               [name, after, "410 Gone: \(reason)"])
                try markDead(db, due.id, "410 Gone: the endpoint asked not to be called again", after)
                try AuditLog.append(db, at: after, actor: "system", action: .hookDisabled, subject: "hook:\(name)", details: ["reason": .string(reason)])
            case .failed(let reason):
                try markDead(db, due.id, reason, after)
            }
        }
        switch result {
        case .delivered: logger.info("hook delivered", ["hook": name, "event_id": due.eventId])
        case .retry(let reason, _): logger.warning("hook delivery failed, will retry", ["hook": name, "event_id": due.eventId, "error": reason])
        case .gone: logger.error("hook endpoint answered 410 Gone and is now disabled", ["hook": name])
        case .failed(let reason): logger.error("hook delivery failed permanently", ["hook": name, "event_id": due.eventId, "error": reason])
        }
        return true
    }

    private func markDead(_ db: Connection, _ id: Int64, _ reason: String, _ ms: Int64) throws {
        try db.execute("UPDATE hook_outbox SET state = 'dead', attempts = attempts + 1, last_error = ? WHERE id = ?", [reason, id])
    }

    /// `hyponatrack hooks status`.
    static func status(_ db: Connection, hooks: [HookConfiguration]) throws -> JSONValue {
        .array(try hooks.map { hook in
            let counts = try db.queryOne("""
                SELECT SUM(state = 'pending'), SUM(state = 'delivered'), SUM(state = 'dead'), MIN(CASE WHEN state = 'pending' THEN created_at END)
                FROM hook_outbox WHERE hook = ?
                """, [hook.name])!
            let disabled = try db.queryOne("SELECT disabled_at, disabled_reason FROM hook_state WHERE hook = ?", [hook.name])
            let dead = try db.query("SELECT event_id, type, last_error, attempts FROM hook_outbox WHERE hook = ? AND state = 'dead' ORDER BY id DESC LIMIT 20",
                                    [hook.name]).map { r -> JSONValue in
                ["eventId": .string(try r.string(0)), "type": .string(try r.string(1)), "error": .string(try r.optionalString(2)),
                 "attempts": .int(try r.int(3))]
            }
            let lastError = try db.queryOne("SELECT last_error FROM hook_outbox WHERE hook = ? AND last_error IS NOT NULL ORDER BY id DESC LIMIT 1",
                                            [hook.name]).flatMap { try $0.optionalString(0) }
            let type: String
            switch hook.kind { case .webhook: type = "webhook"; case .email: type = "email"; case .command: type = "command" }
            return ["name": .string(hook.name), "type": .string(type), "events": .array(hook.events.map { JSONValue.string($0) }),
                    "disabled": .bool(try disabled?.optionalInt64(0) != nil), "disabledReason": .string(try disabled?.optionalString(1)),
                    "pending": .int(try counts.optionalInt(0) ?? 0), "delivered": .int(try counts.optionalInt(1) ?? 0),
                    "deadLetters": .int(try counts.optionalInt(2) ?? 0),
                    "oldestPendingAt": .string(try counts.optionalInt64(3).map { iso8601UTC(milliseconds: $0) }),
                    "lastError": .string(lastError), "dead": .array(dead)]
        })
    }
}
