import SQLite

/// Where the sync's own events (`sync.halted`, `sync.unhealthy`) go: queued for the hooks that
/// subscribe to them in the transaction that records what they report, so a crash or a failed
/// write cannot keep the one and lose the other; delivery is woken after the COMMIT.
struct SyncHookEvents: Sendable {
    let hooks: [HookConfiguration]
    /// Wakes hook delivery (after the COMMIT).
    let wake: @Sendable () -> Void

    init(hooks: [HookConfiguration] = [], wake: @escaping @Sendable () -> Void = {}) {
        self.hooks = hooks
        self.wake = wake
    }

    /// Queues `type` for its subscribers, in the caller's transaction; whether any subscribes.
    func enqueue(_ db: Connection, _ type: HookEventType, _ data: some Encodable, at ms: Int64) throws -> Bool {
        let subscribers = HookOutbox.subscribers(hooks, type: type)
        guard !subscribers.isEmpty else { return false }
        try HookOutbox.enqueue(db, type: type, data: data, hooks: subscribers, at: ms)
        return true
    }
}
