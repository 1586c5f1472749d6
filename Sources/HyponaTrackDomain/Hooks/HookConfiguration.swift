import Foundation
import HTJSON
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

    static func parse(_ json: JSONValue, resolve: (String) -> String) throws(FieldError) -> [HookConfiguration] {
        guard case .array(let items) = json else { throw FieldError.invalid("hooks", "expected an array") }
        var hooks: [HookConfiguration] = []
        for (i, item) in items.enumerated() {
            let r = try ObjectReader(item, path: "hooks[\(i)]")
            let name = try r.required("name", .string(length: 1...64, expected: "a name of letters, digits, '.', '_' or '-'") {
                $0.utf8.allSatisfy { ValueRangesBytes.isNameByte($0) }
            })
            guard !hooks.contains(where: { $0.name == name }) else { throw FieldError.invalid(r.fieldPath("name"), "\(name) is used twice") }
            let type = try r.required("type", .oneOf(["webhook", "email", "command"]))
            let events = try r.optionalArray("events", maxCount: 10) { v, p throws(FieldError) in
                try subscribableEvent.convert(v, p)
            } ?? []
            let path = JSONRead.string(length: 1...4096)
            let kind: Kind
            switch type {
            case "webhook":
                let url = try r.required("url", .string(length: 8...2000))
                if let problem = WebhookTransport.validateURL(url) { throw FieldError.invalid(r.fieldPath("url"), problem) }
                kind = .webhook(url: url, secretFile: resolve(try r.required("secretFile", path)),
                                caFile: try r.optional("caFile", path).map(resolve))
            case "email":
                let url = try r.required("smtpUrl", .string(length: 8...2000))
                let lower = url.lowercased()
                guard lower.hasPrefix("smtps://") || lower.hasPrefix("smtp://") else {
                    throw FieldError.invalid(r.fieldPath("smtpUrl"), "must be smtps:// (or smtp:// with STARTTLS, which is enforced)")
                }
                let address = JSONRead.string(length: 3...254, expected: "an e-mail address") { $0.contains("@") && !$0.contains(" ") }
                let to = try r.optionalArray("to", maxCount: 50) { v, p throws(FieldError) in try address.convert(v, p) } ?? []
                guard !to.isEmpty else { throw FieldError.invalid(r.fieldPath("to"), "needs at least one recipient") }
                kind = .email(smtpURL: url, from: try r.required("from", address), to: to,
                              credentialsFile: try r.optional("credentialsFile", path).map(resolve),
                              caFile: try r.optional("caFile", path).map(resolve))
            default:
                let p = try r.required("path", path)
                guard p.hasPrefix("/") || p.hasPrefix(".") else {
                    throw FieldError.invalid(r.fieldPath("path"), "an absolute path (commands run without a shell)")
                }
                kind = .command(path: resolve(p), args: try r.optionalArray("args", maxCount: 32) { v, p throws(FieldError) in
                    try JSONRead.string(length: 0...1000).convert(v, p)
                } ?? [], timeoutSeconds: try r.optional("timeoutSeconds", .number(1...300)) ?? 30)
            }
            try r.finish()
            hooks.append(HookConfiguration(name: name, kind: kind, events: events))
        }
        return hooks
    }

    /// One entry of `events`: a subscribable event type, by its raw value.
    static var subscribableEvent: JSONRead<HookEventType> {
        // oneOf has let only raw values of cases through, so the conversion cannot fail.
        JSONRead.oneOf(HookEventType.subscribable.map(\.rawValue)).map { raw, _ in HookEventType(rawValue: raw)! }
    }
}

/// The escalation ladder per level (docs/product.md): tier 0 at `afterMinutes` 0 hears `alert.opened`
/// (or `alert.worsened`); later tiers hear `alert.escalated` while the alert is unacknowledged.
public struct EscalationLadder: Sendable, Equatable {
    public struct Tier: Sendable, Equatable {
        public var afterMinutes: Double
        public var hooks: [String]
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

    static func parse(_ json: JSONValue, hooks: [String]) throws(FieldError) -> EscalationLadder {
        let r = try ObjectReader(json, path: "escalation")
        func ladder(_ key: String) throws(FieldError) -> [Tier] {
            var previous = -1.0
            return try r.optionalArray(key, maxCount: 20) { v, p throws(FieldError) -> Tier in
                let t = try ObjectReader(v, path: p)
                let after = try t.required("afterMinutes", .number(0...10_080))
                guard after >= previous else { throw FieldError.invalid(t.fieldPath("afterMinutes"), "tiers must be in increasing order") }
                previous = after
                let names = try t.optionalArray("hooks", maxCount: 20) { v, p throws(FieldError) in
                    try JSONRead.oneOf(hooks).convert(v, p)
                } ?? []
                try t.finish()
                return Tier(afterMinutes: after, hooks: names)
            } ?? []
        }
        let result = EscalationLadder(red: try ladder("red"), yellow: try ladder("yellow"))
        try r.finish()
        return result
    }
}

enum ValueRangesBytes {
    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 97 && b <= 122) || (b >= 65 && b <= 90) || (b >= 48 && b <= 57) || b == 46 || b == 95 || b == 45
    }
}
