/// The `type` of every event the hooks hear (product.md, "Hooks"); the raw value is what the
/// event body and the configuration's `events` list carry.
public enum HookEventType: String, Sendable, CaseIterable {
    /// An alert opened; tier 0 of its ladder.
    case alertOpened = "alert.opened"
    /// An open alert got worse; its ladder restarts at tier 0.
    case alertWorsened = "alert.worsened"
    /// A day joined an acknowledged alert after a gap (a day or more without a finding); to
    /// tier 0 of its level, with no new ladder.
    case alertUpdated = "alert.updated"
    /// A later tier of an unacknowledged alert's ladder.
    case alertEscalated = "alert.escalated"
    /// Staff acknowledged an alert; to every hook that heard of it.
    case alertAcknowledged = "alert.acknowledged"
    /// Staff resolved an alert; to every hook that heard of it.
    case alertResolved = "alert.resolved"
    /// REDCap rows have waited longer than `redcap.unhealthyAfterMinutes`.
    case syncUnhealthy = "sync.unhealthy"
    /// The REDCap sync halted until `hyponatrack sync resume`.
    case syncHalted = "sync.halted"
    /// A planned reminder's time has come (with the tasks still open).
    case reminderDue = "reminder.due"
    /// The audit chain's head `{seq, hash}`, once a day and on demand, to be kept outside the
    /// machine (`audit verify --checkpoint SEQ:HEX`).
    case auditCheckpoint = "audit.checkpoint"
    /// A scheduled or on-demand backup was not written or failed its checks.
    case backupFailed = "backup.failed"

    /// The types a hook subscribes to in its `events` list; alert events are routed by the
    /// escalation ladder instead.
    public static let subscribable: [HookEventType] = [.syncUnhealthy, .syncHalted, .reminderDue, .auditCheckpoint, .backupFailed]
}
