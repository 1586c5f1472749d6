import Foundation
import HTJSON
import HTTPTypes
import HyponaTrackCore

/// `config/hyponatrack.json` (docs/product.md, "Configuration"), validated. Relative paths resolve
/// against the config file's directory; unknown keys and wrong types are start-up errors naming
/// the key.
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
    /// The patient web check-in (`app.*`).
    public var app = App()

    public struct App: Sendable {
        /// Named in the web check-in's emergency instruction.
        public var emergencyNumber = "112"
    }
    /// `imports.*` (ServerConfiguration+Imports.swift).
    public var imports = Imports()

    /// The defaults with everything under `directory` (tests, `--config`-less starts).
    public init(baseDirectory directory: URL, dataDirectory: URL) {
        self.dataDirectory = dataDirectory
        ruleFiles = Dictionary(uniqueKeysWithValues: RuleSet.fileNames.map { ($0, directory.appendingPathComponent($0)) })
    }

    public static func load(file: URL) throws(ConfigurationError) -> ServerConfiguration {
        let bytes: [UInt8]
        do { bytes = Array(try Data(contentsOf: file)) } catch {
            throw ConfigurationError(file: file.path, key: nil, message: "cannot be read (\(error.localizedDescription))")
        }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch {
            throw ConfigurationError(file: file.path, key: nil, message: error.description)
        }
        do { return try parse(json, directory: file.deletingLastPathComponent(), file: file) } catch {
            throw ConfigurationError(file: file.path, key: error.field, message: error.message)
        }
    }

    static func parse(_ json: JSONValue, directory: URL, file: URL?) throws(FieldError) -> ServerConfiguration {
        let r = try ObjectReader(json)
        _ = r.raw("description")
        func resolve(_ path: String) -> URL {
            path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path).standardizedFileURL
        }
        let dataDir = try r.optional("dataDirectory", .string(length: 1...4096)).map(resolve)
            ?? directory.appendingPathComponent("../data").standardizedFileURL
        var config = ServerConfiguration(baseDirectory: directory, dataDirectory: dataDir)
        config.configFile = file
        if let listen = try r.optional("listen", .string(length: 3...300)) {
            guard let parsed = parseListen(listen) else {
                throw FieldError.invalid("listen", "expected HOST:PORT such as 127.0.0.1:8750 or [::1]:8750")
            }
            (config.listenHost, config.listenPort) = parsed
        }
        let zone = JSONRead.string(length: 1...64, expected: "an IANA time zone") { ZoneRules(identifier: $0) != nil }
        config.defaultTimeZone = try r.optional("defaultTimeZone", zone) ?? config.defaultTimeZone
        config.studyTimeZone = try r.optional("studyTimeZone", zone) ?? config.studyTimeZone
        config.consentRequired = try r.optional("consentRequired", .bool) ?? false
        config.trustedProxies = try r.optionalArray("trustedProxies", maxCount: 64) { v, p throws(FieldError) in
            // Canonical (IPAddressText), so `0:0:0:0:0:0:0:1` matches the peer `::1`.
            let text = try JSONRead.string(length: 2...64, expected: "an IP address", isIPAddress).convert(v, p)
            return IPAddressText.canonical(text) ?? text
        } ?? []
        if let rules = try r.optional("rules", .any) {
            let rr = try ObjectReader(rules, path: "rules")
            let keys = ["riskModel": "risk-model.json", "thresholds": "thresholds.json",
                        "reminders": "reminders.json", "instructions": "instructions.json"]
            for (key, name) in keys {
                if let path = try rr.optional(key, .string(length: 1...4096)) { config.ruleFiles[name] = resolve(path) }
            }
            try rr.finish()
        }
        if let redcap = try r.optional("redcap", .any) {
            let rc = try ObjectReader(redcap, path: "redcap")
            let url = try rc.required("url", .string(length: 8...2000))
            guard url.lowercased().hasPrefix("https://") else {
                throw FieldError.invalid("redcap.url", "must be an https:// URL (the token travels in the request)")
            }
            config.redcap = REDCap(url: url, tokenFile: try rc.optional("tokenFile", .string(length: 1...4096)).map { resolve($0).path },
                                   caFile: try rc.optional("caFile", .string(length: 1...4096)).map { resolve($0).path },
                                   batchSize: try rc.optional("batchSize", .integer(1...1000)) ?? 100,
                                   maxRequestsPerMinute: try rc.optional("maxRequestsPerMinute", .integer(1...600)) ?? 120)
            if let events = try rc.optional("events", .any) {
                let er = try ObjectReader(events, path: "redcap.events")
                let name = JSONRead.string(length: 1...100, expected: "a REDCap event name such as baseline_arm_1") {
                    $0.utf8.allSatisfy { ValueRanges.isLowerCodeByte($0) }
                }
                config.redcap?.baselineEvent = try er.required("baseline", name)
                config.redcap?.dailyEvent = try er.required("daily", name)
                try er.finish()
            }
            config.redcap?.unhealthyAfterMinutes = try rc.optional("unhealthyAfterMinutes", .number(1...10_080)) ?? 60
            config.redcap?.settleSeconds = try rc.optional("settleSeconds", .number(0...3600)) ?? 60
            try rc.finish()
        }
        if let hooks = try r.optional("hooks", .any) {
            config.hooks = try HookConfiguration.parse(hooks) { resolve($0).path }
        }
        if let escalation = try r.optional("escalation", .any) {
            config.escalation = try EscalationLadder.parse(escalation, hooks: config.hooks.map(\.name))
        }
        if let s = try r.optional("scheduler", .any) {
            let sr = try ObjectReader(s, path: "scheduler")
            config.schedulerIntervalSeconds = try sr.optional("intervalSeconds", .number(0.2...300)) ?? 15
            try sr.finish()
        }
        if let a = try r.optional("app", .any) {
            let ar = try ObjectReader(a, path: "app")
            config.app.emergencyNumber = try ar.optional("emergencyNumber", JSONRead.string(length: 1...20,
                expected: "a telephone number of digits, spaces and a leading +") { text in
                    text.utf8.enumerated().allSatisfy { i, b in (b >= 0x30 && b <= 0x39) || b == 0x20 || (i == 0 && b == 0x2B) }
                }) ?? "112"
            try ar.finish()
        }
        if let a = try r.optional("activation", .any) {
            let ar = try ObjectReader(a, path: "activation")
            config.activation.codeTTLSeconds = (try ar.optional("codeTtlHours", .number(0.1...720)) ?? 72) * 3600
            config.activation.maxFailures = try ar.optional("maxFailures", .integer(1...100)) ?? 5
            config.activation.lockoutSeconds = (try ar.optional("lockoutMinutes", .number(0.1...1440)) ?? 15) * 60
            try ar.finish()
        }
        if let h = try r.optional("http", .any) {
            let hr = try ObjectReader(h, path: "http")
            if try hr.optional("perIPConnections", .any) != nil {
                throw FieldError.invalid("http.perIPConnections", "is now http.maxConnectionsPerIP (default 32; trustedProxies are exempt)")
            }
            if try hr.optional("threading", .any) != nil {
                throw FieldError.invalid("http.threading", "is gone: connections are always served by libmicrohttpd's event loop and handlers by http.threads threads; remove the key")
            }
            config.http.threads = try hr.optional("threads", .integer(1...256)) ?? config.http.threads
            config.http.maxConnections = try hr.optional("maxConnections", .integer(2...100_000)) ?? config.http.maxConnections
            config.http.maxConnectionsPerIP = try hr.optional("maxConnectionsPerIP", .integer(0...100_000)) ?? config.http.maxConnectionsPerIP
            config.http.headerTimeoutSeconds = try hr.optional("headerTimeoutSeconds", .number(0.1...3600)) ?? config.http.headerTimeoutSeconds
            config.http.bodyTimeoutSeconds = try hr.optional("bodyTimeoutSeconds", .number(0.1...3600)) ?? config.http.bodyTimeoutSeconds
            config.http.timeoutSeconds = try hr.optional("timeoutSeconds", .integer(1...3600)) ?? config.http.timeoutSeconds
            try hr.finish()
        }
        try parseLimitsAndTokens(r, into: &config)
        try parseImports(r, into: &config)
        if let a = try r.optional("audit", .any) {
            let ar = try ObjectReader(a, path: "audit")
            config.audit.keyFile = try ar.optional("keyFile", .string(length: 1...4096)).map { resolve($0).path }
            try ar.finish()
        }
        try r.finish()
        return config
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

    static func isIPAddress(_ s: String) -> Bool { IPAddressText.canonical(s) != nil }
}

extension ServerConfiguration {
    /// `error` naming its rule file by the configured path (the loader knows only the file's
    /// name; the operator needs the path).
    func locating(_ error: RulesError) -> RulesError {
        RulesError(file: ruleFiles[error.file]?.path ?? error.file, key: error.key, message: error.message)
    }
}

/// A configuration file that cannot be used, naming the key.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let key: String?
    public let message: String
    public var description: String { key.map { "\(file): \($0): \(message)" } ?? "\(file): \(message)" }
}
