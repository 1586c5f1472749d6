import Synchronization
import SQLite

/// What one delivery attempt decided for its outbox row, worked out when the attempt ended, so
/// the same write can be made again later if the first try fails.
enum HookOutcome: Sendable, Equatable {
    case delivered(at: Int64)
    /// A failure to retry at `until` (epoch ms).
    case postponed(until: Int64, error: String)
    /// A dead letter.
    case dead(reason: String)
    /// The endpoint answered 410: the hook is disabled and the row is a dead letter.
    case gone(reason: String, at: Int64)

    /// Writes the outcome of attempt number `attempts` of row `id`, in the caller's transaction.
    func write(_ db: Connection, id: Int64, hook: String, attempts: Int) throws {
        switch self {
        case .delivered(let ms):
            try HookOutboxRepository.markDelivered(db, id: id, at: ms, attempts: attempts)
        case .postponed(let until, let error):
            try HookOutboxRepository.postpone(db, id: id, until: until, error: error, attempts: attempts)
        case .dead(let reason):
            try HookOutboxRepository.markDead(db, id: id, reason: reason, attempts: attempts)
        case .gone(let reason, let ms):
            try HookOutboxRepository.disable(db, hook: hook, at: ms, reason: "410 Gone: \(reason)")
            try HookOutboxRepository.markDead(db, id: id, reason: "410 Gone: the endpoint asked not to be called again",
                                              attempts: attempts)
            try AuditLog.append(db, at: ms, actor: "system", action: .hookDisabled, subject: "hook:\(hook)",
                                details: AuditDetails.HookDisabled(reason: reason))
        }
    }

    /// Until when (epoch ms) the row must not be sent again while this outcome is unrecorded:
    /// its retry time after a failure, for good (nil) after a delivery or a dead letter.
    var holdsUntil: Int64? {
        if case .postponed(let until, _) = self { return until }
        return nil
    }

    var name: String {
        switch self {
        case .delivered: "delivered"
        case .postponed: "retry"
        case .dead: "dead"
        case .gone: "gone"
        }
    }
}

/// Outcomes that were decided but could not be written (disk full, the database locked past
/// its busy timeout): kept in memory, per hook, and written again with a growing pause (1 s,
/// 2 s, 4 s … 60 s). Meanwhile the row is not sent again sooner than its outcome allows —
/// never after a delivery or a dead letter, not before the scheduled retry after a failure —
/// so a receiver that cannot de-duplicate (e-mail, a pager script) is not called once a second.
/// Lost in a crash: the row is then sent again after the restart, as any in-flight row is.
final class UnrecordedHookOutcomes: Sendable {
    struct Entry: Sendable {
        let id: Int64
        let eventId: String
        let outcome: HookOutcome
        /// The attempt's number (the attempts the row will show once written).
        let attempts: Int
    }

    private struct Hook {
        var entries: [Int64: Entry] = [:]
        var nextWriteAt = Int64.min
        var pause = GrowingPause(first: 1, cap: UnrecordedHookOutcomes.maxPauseSeconds)
    }

    static let maxPauseSeconds: Double = 60
    private let hooks = Mutex<[String: Hook]>([:])

    func hold(_ entry: Entry, hook: String, at ms: Int64) {
        hooks.withLock { all in
            var h = all[hook] ?? Hook()
            if h.entries.isEmpty {
                h.pause.succeeded()
                h.nextWriteAt = ms + Int64(h.pause.failed() * 1000)
            }
            h.entries[entry.id] = entry
            all[hook] = h
        }
    }

    /// The rows that must not be sent at `ms`.
    func heldRows(hook: String, at ms: Int64) -> Set<Int64> {
        hooks.withLock { all in
            guard let h = all[hook] else { return [] }
            return Set(h.entries.values.filter { e in e.outcome.holdsUntil.map { $0 > ms } ?? true }.map(\.id))
        }
    }

    /// Attempts already made of row `id` that the outbox does not show yet.
    func attempts(of id: Int64, hook: String) -> Int? { hooks.withLock { $0[hook]?.entries[id]?.attempts } }

    /// Whether an unrecorded 410 disabled the hook.
    func isDisabled(hook: String) -> Bool {
        hooks.withLock { $0[hook]?.entries.values.contains { if case .gone = $0.outcome { true } else { false } } ?? false }
    }

    /// The outcomes to write again now (their pause is over), or none.
    func due(hook: String, at ms: Int64) -> [Entry] {
        hooks.withLock { all in
            guard let h = all[hook], !h.entries.isEmpty, ms >= h.nextWriteAt else { return [] }
            return h.entries.values.sorted { $0.id < $1.id }
        }
    }

    /// `written` are in the outbox now (or superseded by a newer attempt's outcome).
    func recorded(_ written: [Int64], hook: String) {
        hooks.withLock { all in for id in written { all[hook]?.entries[id] = nil } }
    }

    /// Writing them again failed: pause longer before the next try; returns the pause in seconds.
    @discardableResult
    func writeFailed(hook: String, at ms: Int64) -> Double {
        hooks.withLock { all in
            var h = all[hook] ?? Hook()
            let pause = h.pause.failed()
            h.nextWriteAt = ms + Int64(pause * 1000)
            all[hook] = h
            return pause
        }
    }
}
