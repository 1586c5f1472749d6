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
    /// The sites whose patients' events this hook hears (nil: every site's). Events about no
    /// patient (`sync.*`, `audit.checkpoint`) reach it whatever the filter.
    public var sites: [String]?

    public init(name: String, kind: Kind, events: [HookEventType], sites: [String]? = nil) {
        self.name = name
        self.kind = kind
        self.events = events
        self.sites = sites
    }

    /// Whether the hook hears events about a patient of the site `code`.
    public func hears(site code: String) -> Bool { sites?.contains(code) ?? true }

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

    /// A site's own tiers (`escalation.sites.CODE`); a level it leaves out uses the study's.
    public struct SiteTiers: Sendable, Equatable {
        public var red: [Tier]?
        public var yellow: [Tier]?

        public init(red: [Tier]? = nil, yellow: [Tier]? = nil) {
            self.red = red
            self.yellow = yellow
        }
    }

    public var red: [Tier] = []
    public var yellow: [Tier] = []
    /// By site code (docs/product.md, third round, S); every code must be a site at start.
    public var sites: [String: SiteTiers] = [:]

    /// False when no tier is configured: alerts are stored and shown but reach nobody.
    public var isConfigured: Bool {
        !(red.isEmpty && yellow.isEmpty) || sites.values.contains { !($0.red ?? []).isEmpty || !($0.yellow ?? []).isEmpty }
    }

    /// The study's tiers for the level.
    public func tiers(for level: Level) -> [Tier] {
        switch level {
        case .red: return red
        case .yellow: return yellow
        case .green, .info: return []
        }
    }

    /// The tiers of the site's ladder for the level: its own, else the study's.
    public func tiers(for level: Level, site: String?) -> [Tier] {
        guard let site, let own = sites[site] else { return tiers(for: level) }
        switch level {
        case .red: return own.red ?? red
        case .yellow: return own.yellow ?? yellow
        case .green, .info: return []
        }
    }

    public init(red: [Tier] = [], yellow: [Tier] = [], sites: [String: SiteTiers] = [:]) {
        self.red = red
        self.yellow = yellow
        self.sites = sites
    }
}
