import Foundation
import HTTPTypes
import HyponaTrackCore

/// `config/hyponatrack.json` (docs/product.md, "Configuration") as typed values: what the domain,
/// the web and the daemon are built from. The file is read and checked, naming the offending key,
/// by the `HyponaTrackConfigFile` target (`ServerConfiguration.load(file:)`); the domain never
/// sees its JSON. The defaults here are the documented ones.
public struct ServerConfiguration: Sendable {
    public struct Activation: Sendable {
        public var codeTTLSeconds: Double = 72 * 3600
        public var maxFailures: Int = 5
        public var lockoutSeconds: Double = 15 * 60
    }

    public struct HTTP: Sendable {
        /// Threads that run request handlers; a request waiting for its commit holds none of
        /// libmicrohttpd's polling threads (docs/operations.md, `http`).
        public var threads: Int = 16
        public var maxConnections: Int = 1024
        /// Per client IP; `trustedProxies` are exempt. 0: unlimited.
        public var maxConnectionsPerIP: Int = 32
        public var headerTimeoutSeconds: Double = 10
        public var bodyTimeoutSeconds: Double = 30
        /// Idle time after which a connection is closed (e.g. a client that stops reading).
        public var timeoutSeconds: Int = 30
    }

    public struct REDCap: Sendable {
        public var url: String
        public var tokenFile: String?
        public var caFile: String?
        public var batchSize: Int
        public var maxRequestsPerMinute: Int
        /// Longitudinal projects: the event of each instrument (both or neither).
        public var baselineEvent: String?
        public var dailyEvent: String?
        /// Staff are told (`sync.unhealthy`) when the oldest pending row is older than this.
        public var unhealthyAfterMinutes: Double = 60
        /// How long a request whose outcome is unknown may still be applied by REDCap: its rows
        /// are sent once more after this, so an older row landing late cannot stay there.
        public var settleSeconds: Double = 60

        public init(url: String, tokenFile: String? = nil, caFile: String? = nil, batchSize: Int = 100, maxRequestsPerMinute: Int = 120) {
            self.url = url
            self.tokenFile = tokenFile
            self.caFile = caFile
            self.batchSize = batchSize
            self.maxRequestsPerMinute = maxRequestsPerMinute
        }

        /// Why `url` cannot be the REDCap API's address, or nil.
        public static func urlProblem(_ url: String) -> String? {
            url.lowercased().hasPrefix("https://") ? nil : "must be an https:// URL (the token travels in the request)"
        }

        /// A REDCap event name such as `baseline_arm_1`.
        public static func isEventName(_ name: String) -> Bool { name.utf8.allSatisfy { ValueRanges.isLowerCodeByte($0) } }
    }

    public struct Audit: Sendable {
        /// The audit key file (owner-only, outside the data directory); nil: systemd's
        /// credential `audit-key`, else `DATA_DIR/../audit-key` (`AuditKeySource`).
        public var keyFile: String?
    }

    public var configFile: URL?
    public var listenHost: String = "127.0.0.1"
    public var listenPort: Int = 8750
    public var dataDirectory: URL
    public var defaultTimeZone: String = "Europe/Berlin"
    public var studyTimeZone: String = "Europe/Berlin"
    /// Whether an enrolment must carry `consentVersion` and `consentDate`.
    public var consentRequired = false
    /// Peers whose `X-Forwarded-For` is believed (exact IP addresses).
    public var trustedProxies: [String] = []
    /// Rule file name → path.
    public var ruleFiles: [String: URL]
    public var redcap: REDCap?
    public var hooks: [HookConfiguration] = []
    public var escalation = EscalationLadder()
    /// How often the scheduler runs (escalations, reminders, missing data).
    public var schedulerIntervalSeconds: Double = 15
    public var activation = Activation()
    public var http = HTTP()
    /// `limits.*` and `tokens.*` (ServerConfiguration+Limits.swift).
    public var limits = Limits()
    public var tokens = Tokens()
    public var audit = Audit()
    /// `console.*` (ServerConfiguration+Console.swift).
    public var console = Console()
    /// The patient web check-in (`app.*`).
    public var app = App()

    public struct App: Sendable {
        /// Named in the web check-in's emergency instruction.
        public var emergencyNumber = "112"
        /// The clinic's telephone number, shown with a yellow or red light (nil: not shown).
        public var clinicPhone: String?
        /// When the clinic calls patients back (nil: a yellow light names no time).
        public var clinicHours: ClinicHours?
        /// Where patients reach `/app/` (`https://…`, or `http://` on a loopback host), without a
        /// trailing slash: enrolment and a new code then also answer the activation link.
        public var publicURL: String?

        /// `{publicURL}/app/activate?study=ID&code=CODE`, or nil without `publicURL`.
        public func activationURL(studyId: String, code: String) -> String? {
            publicURL.map { "\($0)/app/activate?study=\(Self.queryValue(studyId))&code=\(Self.queryValue(code))" }
        }

        /// Study IDs and codes are `[A-Za-z0-9_-]` (codes grouped with `-`): nothing to escape but
        /// anything else is percent-encoded all the same.
        static func queryValue(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_"))) ?? text
        }

        /// Why `url` cannot be `app.publicURL`, or nil: https, or http to a loopback host; no
        /// query, fragment or user; no trailing slash needed.
        public static func publicURLProblem(_ url: String) -> String? {
            guard let c = URLComponents(string: url), let scheme = c.scheme?.lowercased(), let host = c.host, !host.isEmpty else {
                return "expected an absolute URL such as https://checkin.example.org"
            }
            guard c.query == nil, c.fragment == nil, c.user == nil, c.password == nil else {
                return "must not carry a query, a fragment or credentials"
            }
            let loopback = host == "localhost" || host.hasPrefix("127.") || host == "[::1]" || host == "::1"
            if scheme == "https" || (scheme == "http" && loopback) { return nil }
            return "must be an https:// URL (http:// only for a loopback host): the link carries the activation code"
        }

        /// Digits, spaces and a leading `+`: what a phone dials, as the check-in shows it.
        public static func isEmergencyNumber(_ text: String) -> Bool {
            text.utf8.enumerated().allSatisfy { i, b in (b >= 0x30 && b <= 0x39) || b == 0x20 || (i == 0 && b == 0x2B) }
        }
    }
    /// `imports.*` (ServerConfiguration+Imports.swift).
    public var imports = Imports()
    /// Push reminders (`push.*`, ServerConfiguration+Push.swift); nothing configured: no push.
    public var push = Push()
    /// Scheduled backups (`backup.*`, ServerConfiguration+Operations.swift); nil: on demand only.
    public var backup: Backup?
    /// `log.*`: the lowest level written (SIGHUP reloads it).
    public var log = Log()
    /// `outcomes.*` (ServerConfiguration+Outcomes.swift).
    public var outcomes = Outcomes()
    /// `rules.shadow`: a directory with the four rule files evaluated beside the live ones
    /// (docs/product.md, third round, O); a shadow set by `hyponatrack rules shadow` wins.
    public var shadowRulesDirectory: URL?

    /// The defaults with everything under `directory` (tests, `--config`-less starts).
    public init(baseDirectory directory: URL, dataDirectory: URL) {
        self.dataDirectory = dataDirectory
        ruleFiles = Dictionary(uniqueKeysWithValues: RuleSet.fileNames.map { ($0, directory.appendingPathComponent($0)) })
    }

    /// `HOST:PORT` or `[IPv6]:PORT`.
    public static func parseListen(_ s: String) -> (String, Int)? {
        let host: Substring, port: Substring
        if s.hasPrefix("[") {
            guard let close = s.firstIndex(of: "]"), s[s.index(after: close)...].hasPrefix(":") else { return nil }
            host = s[s.index(after: s.startIndex)..<close]
            port = s[s.index(close, offsetBy: 2)...]
        } else {
            guard let colon = s.lastIndex(of: ":") else { return nil }
            host = s[..<colon]
            port = s[s.index(after: colon)...]
        }
        guard let p = Int(port), (0...65535).contains(p), isIPAddress(String(host)) else { return nil }
        return (String(host), p)
    }

    public static func isIPAddress(_ s: String) -> Bool { IPAddressText.canonical(s) != nil }
}

extension ServerConfiguration {
    /// `error` naming its rule file by the configured path (the loader knows only the file's
    /// name; the operator needs the path).
    func locating(_ error: RulesError) -> RulesError {
        RulesError(file: ruleFiles[error.file]?.path ?? error.file, key: error.key, message: error.message)
    }
}
