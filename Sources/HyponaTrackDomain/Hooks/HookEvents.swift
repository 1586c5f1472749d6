import HyponaTrackKit

/// The `data` of each kind of hook event, as typed values; `HookOutbox.enqueue` writes them into
/// the event body `{type, id, timestamp, data}` as JSON text (members in declaration order).
/// Receivers read the body (docs/operations.md, "Hooks"): keep members and their order.
enum HookEventData {
    /// `alert.opened`, `alert.worsened`, `alert.escalated` (with its tier), and, for the hooks
    /// already told, `alert.acknowledged` and `alert.resolved` (with who, the note, the sodium).
    struct Alert: Encodable, Sendable {
        let alertId: Int64
        let studyId: String
        /// The code of the patient's site (docs/product.md, third round, S).
        let site: String
        /// The first day the alert covers.
        let date: String
        /// The last day it covers.
        let lastDate: String
        let pod: Int
        let level: String
        let kind: String
        let reasons: [ReasonDisplay]
        let riskClass: String
        let tier: Int?
        let state: String
        /// What a staff member did, for `alert.acknowledged` and `alert.resolved`.
        var staffAction: StaffAction?

        enum StaffAction: Sendable {
            case acknowledged(by: String, note: String?)
            case resolved(by: String, note: String, sodium: Double?)
        }

        private enum CodingKeys: String, CodingKey {
            case alertId, studyId, site, date, lastDate, pod, level, kind, reasons, riskClass, tier, state, by, note, sodium
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(alertId, forKey: .alertId)
            try c.encode(studyId, forKey: .studyId)
            try c.encode(site, forKey: .site)
            try c.encode(date, forKey: .date)
            try c.encode(lastDate, forKey: .lastDate)
            try c.encode(pod, forKey: .pod)
            try c.encode(level, forKey: .level)
            try c.encode(kind, forKey: .kind)
            try c.encode(reasons, forKey: .reasons)
            try c.encode(riskClass, forKey: .riskClass)
            try c.encodeIfPresent(tier, forKey: .tier)
            try c.encode(state, forKey: .state)
            switch staffAction {
            case .acknowledged(let by, let note)?:
                try c.encode(by, forKey: .by)
                try c.encodeIfPresent(note, forKey: .note)
            case .resolved(let by, let note, let sodium)?:
                try c.encode(by, forKey: .by)
                try c.encode(note, forKey: .note)
                try c.encodeIfPresent(sodium, forKey: .sodium)
            case nil:
                break
            }
        }
    }

    /// `reminder.due`: a patient without the app is due a reminder (`Scheduler`).
    struct ReminderDue: Encodable, Sendable {
        let studyId: String
        let site: String
        let date: String
        let pod: Int
        let kind: String
        let at: String
        let intensity: String
        let tasks: [String]
    }

    /// `sync.halted`.
    struct SyncHalted: Encodable, Sendable {
        let reason: String
    }

    /// `sync.unhealthy`.
    struct SyncUnhealthy: Encodable, Sendable {
        let oldestPendingSeconds: Double
        let pending: Int
        let lastFailure: String?
    }

    /// `backup.failed`: a scheduled or on-demand backup was not written or failed its checks.
    struct BackupFailed: Encodable, Sendable {
        /// `scheduled` or `manual`.
        let trigger: String
        let directory: String
        let reason: String
    }

    /// `audit.checkpoint`: the trail's head, to be kept somewhere else.
    struct AuditCheckpoint: Encodable, Sendable {
        let seq: Int64
        let hash: String
        let checkpoint: String
        let reason: String
    }
}

/// A reason as people see it (API, hook events): values rounded to 6 decimals; decisions were
/// taken on the unrounded values.
public struct ReasonDisplay: Encodable, Sendable, Equatable {
    public let code: String
    public let level: String
    public let value: Double?
    public let threshold: Double?

    public init(_ r: StoredReason) {
        code = r.code
        level = r.level.rawValue
        value = r.value.map(EvaluationJSON.display)
        threshold = r.threshold.map(EvaluationJSON.display)
    }
}
