import SQLite

/// `GET /v1/hooks/events` (`hooks list`).
public struct HookEventsQuery: Sendable {
    public var state: HookEventState?
    public var hook: String?
    public var limit: Int

    public init(state: HookEventState? = nil, hook: String? = nil, limit: Int = 100) {
        self.state = state
        self.hook = hook
        self.limit = limit
    }

    public static let limits = 1...1000
}

/// `POST /v1/hooks/events/{eventId}/retry` (`hooks retry EVENT_ID`).
public struct RetryHookEvent: Sendable {
    public var eventId: String
    public var actor: String

    public init(eventId: String, actor: String) {
        self.eventId = eventId
        self.actor = actor
    }
}

/// `POST /v1/hooks/{name}/enable` (`hooks enable NAME`).
public struct EnableHook: Sendable {
    public var name: String
    public var actor: String

    public init(name: String, actor: String) {
        self.name = name
        self.actor = actor
    }
}

/// What an admin does about hook delivery: list events, send a failed or dead event again,
/// enable a hook its endpoint's 410 disabled. Each change is audited and wakes the delivery.
public final class HookAdmin: Sendable {
    let transactions: Transactions
    let hooks: [HookConfiguration]
    let clock: any ServerClock
    let wake: @Sendable () -> Void

    init(transactions: Transactions, hooks: [HookConfiguration], clock: any ServerClock, wake: @escaping @Sendable () -> Void) {
        self.transactions = transactions
        self.hooks = hooks
        self.clock = clock
        self.wake = wake
    }

    public func events(_ query: HookEventsQuery) throws -> [HookEventRow] {
        try transactions.read { db in try HookOutboxRepository.events(db, state: query.state, hook: query.hook, limit: query.limit) }
    }

    /// Makes every dead or failed row of the event due now (each with another 24 hours);
    /// returns the hooks it goes to again. A hook that is disabled is refused: enable it first.
    public func retry(_ command: RetryHookEvent) throws -> [String] {
        let ms = epochMilliseconds(clock.now())
        let retried: [String] = try transactions.write { db in
            let rows = try HookOutboxRepository.hooks(db, eventId: command.eventId)
            guard !rows.isEmpty else { throw DomainError.notFound("no hook event \(command.eventId)") }
            var retried: [String] = []
            for row in rows {
                if let reason = try HookOutboxRepository.disabledReason(db, hook: row.hook), row.state == "dead" {
                    throw DomainError.conflict("the hook \(row.hook) is disabled (\(reason)): hyponatrack hooks enable \(row.hook) first",
                                               field: "eventId")
                }
                if try HookOutboxRepository.retry(db, eventId: command.eventId, hook: row.hook, at: ms) { retried.append(row.hook) }
            }
            guard !retried.isEmpty else {
                throw DomainError.conflict("the event \(command.eventId) has nothing to retry: it was delivered, or waits for its first attempt",
                                           field: "eventId")
            }
            try AuditLog.append(db, at: ms, actor: command.actor, action: .hookRetry, subject: "event:\(command.eventId)",
                                details: AuditDetails.HookRetry(hooks: retried))
            return retried
        }
        wake()
        return retried
    }

    /// Enables a hook its endpoint's 410 disabled; its dead letters stay dead until retried.
    public func enable(_ command: EnableHook) throws {
        guard hooks.contains(where: { $0.name == command.name }) else {
            throw DomainError.notFound("no hook \(command.name) is configured")
        }
        let ms = epochMilliseconds(clock.now())
        try transactions.write { db in
            guard try HookOutboxRepository.enable(db, hook: command.name) else {
                throw DomainError.conflict("the hook \(command.name) is not disabled", field: "name")
            }
            try AuditLog.append(db, at: ms, actor: command.actor, action: .hookEnable, subject: "hook:\(command.name)",
                                details: AuditDetails.HookName(hook: command.name))
        }
        wake()
    }
}
