extension AuditDetails {
    /// `alert.open`.
    struct AlertOpened: Encodable, Sendable {
        let alertId: Int64
        let level: String
        let kind: String
        let date: String
    }

    /// `alert.worsened`: the alert's level now and the day whose finding worsened it.
    struct AlertWorsened: Encodable, Sendable {
        let alertId: Int64
        let level: String
        let kind: String
        let date: String
    }

    /// `alert.merge`: the upgrade to episodes merged this unresolved alert into another.
    struct AlertMerged: Encodable, Sendable {
        let alertId: Int64
        let mergedInto: Int64
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
