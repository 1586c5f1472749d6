extension AuditDetails {
    /// `alert.open`.
    struct AlertOpened: Encodable, Sendable {
        let alertId: Int64
        let level: String
        let kind: String
        let date: String
    }

    /// `alert.worsened`.
    struct AlertWorsened: Encodable, Sendable {
        let alertId: Int64
        let level: String
        let kind: String
    }

    /// `alert.escalated`: the ladder's tier and the hooks it told.
    struct AlertEscalated: Encodable, Sendable {
        let alertId: Int64
        let tier: Int
        let hooks: [String]
    }

    /// `alert.acknowledge`.
    struct AlertAcknowledged: Encodable, Sendable {
        let alertId: Int64
        let note: String?
    }

    /// `alert.resolve`.
    struct AlertResolved: Encodable, Sendable {
        let alertId: Int64
        let note: String
        let sodium: Double?
    }

    /// `hook.disabled`.
    struct HookDisabled: Encodable, Sendable {
        let reason: String
    }
}
