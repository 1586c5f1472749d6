import HTJSON
import HyponaTrackCore
import SQLite
@testable import HyponaTrackDomain

// Tests written before payloads were typed (docs/product.md, third round R) still state their
// details and events as JSON values; these give them the typed API the same text.

extension AuditLog {
    @discardableResult
    static func append(_ db: Connection, at: Int64, actor: String, action: AuditAction, subject: String?,
                       details: JSONValue) throws -> AuditEntry {
        try append(db, at: at, actor: actor, action: action, subject: subject, details: JSONText(JSONSerializer.string(details)))
    }
}

extension HookOutbox {
    @discardableResult
    static func enqueue(_ db: Connection, type: HookEventType, data: JSONValue, hooks: [String], at ms: Int64) throws -> String? {
        try enqueue(db, type: type, data: JSONText(JSONSerializer.string(data)), hooks: hooks, at: ms)
    }
}

extension HookTransport {
    /// The event parsed is no longer handed over: transports read the body.
    func deliver(eventId: String, timestamp: Int64, body: [UInt8], event: JSONValue) -> DeliveryResult {
        deliver(eventId: eventId, timestamp: timestamp, body: body)
    }
}

extension EmailText {
    static func render(event: JSONValue, rules: RuleSet) -> (subject: String, body: String) {
        render(body: JSONSerializer.bytes(event), rules: rules)
    }
}

extension SyncCheck {
    @_disfavoredOverload
    static func compare(name: String, form: String, validation: REDCapFields.Validation, remote: JSONObject?) -> [String] {
        compare(name: name, form: form, validation: validation, remote: remote.map(redcapObject))
    }

    @_disfavoredOverload
    static func noDataLabel(remote: JSONObject?, days: Int) -> String? {
        noDataLabel(remote: remote.map(redcapObject), days: days)
    }

    private static func redcapObject(_ o: JSONObject) -> REDCapObject {
        REDCapObject(members: Dictionary(o.members.map { m -> (String, REDCapScalar) in
            switch m.value {
            case .string(let s): return (m.key, .string(s))
            case .number(let n): return (m.key, .number(n))
            default: return (m.key, .other)
            }
        }, uniquingKeysWith: { $1 }))
    }
}
