import Foundation
import HTJSON
import HTTPTypes
import HyponaTrackCore
import HyponaTrackDomain

/// Reads `config/hyponatrack.json` (docs/product.md, "Configuration") into the domain's typed
/// `ServerConfiguration`. Relative paths resolve against the config file's directory; unknown
/// keys and wrong types are start-up errors naming the key. The domain never sees this JSON: the
/// daemon loads the file here and hands the typed value on.
extension ServerConfiguration {
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
            config.shadowRulesDirectory = try rr.optional("shadow", .string(length: 1...4096)).map(resolve)
            try rr.finish()
        }
        if let redcap = try r.optional("redcap", .any) {
            config.redcap = try parseREDCap(redcap) { resolve($0).path }
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
        try parseApp(r, into: &config)
        try parseActivation(r, into: &config)
        try parseHTTP(r, into: &config)
        try parseLimitsAndTokens(r, into: &config)
        try parseImports(r, into: &config)
        try parseOutcomes(r, into: &config)
        try parsePush(r, into: &config) { resolve($0).path }
        try parseOperations(r, into: &config, resolve: resolve)
        if let a = try r.optional("audit", .any) {
            let ar = try ObjectReader(a, path: "audit")
            config.audit.keyFile = try ar.optional("keyFile", .string(length: 1...4096)).map { resolve($0).path }
            try ar.finish()
        }
        try parseConsole(r, into: &config) { resolve($0).path }
        try r.finish()
        return config
    }
}

/// A configuration file that cannot be used, naming the key.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let key: String?
    public let message: String
    public var description: String { key.map { "\(file): \($0): \(message)" } ?? "\(file): \(message)" }
}
