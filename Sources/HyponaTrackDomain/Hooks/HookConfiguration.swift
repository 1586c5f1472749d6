import HyponaTrackCore

/// One configured hook (docs/product.md, "Configuration": `hooks`).
public struct HookConfiguration: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case webhook(url: String, secretFile: String, caFile: String?)
        case email(smtpURL: String, from: String, to: [String], credentialsFile: String?, caFile: String?)
        case command(path: String, args: [String], timeoutSeconds: Double)
    }

    public var name: String
    public var kind: Kind
    /// The non-alert events this hook hears (``HookEventType/subscribable``).
    public var events: [HookEventType]

    public init(name: String, kind: Kind, events: [HookEventType]) {
        self.name = name
        self.kind = kind
        self.events = events
    }

    /// A hook's name: letters, digits, `.`, `_` or `-` (it appears in logs, the outbox and the ladder).
    public static func isValidName(_ name: String) -> Bool {
        name.utf8.allSatisfy { b in
            (b >= 97 && b <= 122) || (b >= 65 && b <= 90) || (b >= 48 && b <= 57) || b == 46 || b == 95 || b == 45
        }
    }

    /// Why `url` cannot be an e-mail hook's SMTP server, or nil: STARTTLS is enforced on smtp://.
    public static func smtpURLProblem(_ url: String) -> String? {
        let lower = url.lowercased()
        return lower.hasPrefix("smtps://") || lower.hasPrefix("smtp://") ? nil
            : "must be smtps:// (or smtp:// with STARTTLS, which is enforced)"
    }

    /// An e-mail address as a hook's `from` and `to` take it (the SMTP server checks the rest).
    public static func isEmailAddress(_ text: String) -> Bool { text.contains("@") && !text.contains(" ") }

    /// Why `path` cannot be a command hook's program, or nil: commands run without a shell.
    public static func commandPathProblem(_ path: String) -> String? {
        path.hasPrefix("/") || path.hasPrefix(".") ? nil : "an absolute path (commands run without a shell)"
    }
}

/// The escalation ladder per level (docs/product.md): tier 0 at `afterMinutes` 0 hears `alert.opened`
/// (or `alert.worsened`); later tiers hear `alert.escalated` while the alert is unacknowledged.
public struct EscalationLadder: Sendable, Equatable {
    public struct Tier: Sendable, Equatable {
        public var afterMinutes: Double
        public var hooks: [String]

        public init(afterMinutes: Double, hooks: [String]) {
            self.afterMinutes = afterMinutes
            self.hooks = hooks
        }
    }

    public var red: [Tier] = []
    public var yellow: [Tier] = []

    /// False when no tier is configured: alerts are stored and shown but reach nobody.
    public var isConfigured: Bool { !(red.isEmpty && yellow.isEmpty) }

    public func tiers(for level: Level) -> [Tier] {
        switch level {
        case .red: return red
        case .yellow: return yellow
        case .green, .info: return []
        }
    }

    public init(red: [Tier] = [], yellow: [Tier] = []) {
        self.red = red
        self.yellow = yellow
    }
}
