import Foundation
import HTJSON
import Crypto
import SQLite

/// Queues events for hooks in the caller's transaction: one row per event and hook, with a
/// stable event id (the `webhook-id` every retry repeats). Body: `{type, id, timestamp, data}`;
/// never tokens or secrets.
enum HookOutbox {
    @discardableResult
    static func enqueue(_ db: Connection, type: HookEventType, data: JSONValue, hooks: [String], at ms: Int64) throws -> String? {
        guard !hooks.isEmpty else { return nil }
        let id = "evt_" + Crypto.hex(try Crypto.randomBytes(12))
        let body: JSONValue = ["type": .string(type.rawValue), "id": .string(id), "timestamp": .string(iso8601UTC(milliseconds: ms)),
                               "data": data]
        let text = JSONSerializer.string(body)
        for hook in Set(hooks).sorted() {
            try HookOutboxRepository.insert(db, eventId: id, hook: hook, type: type.rawValue, body: text, at: ms)
        }
        return id
    }

    /// The hooks subscribed to a non-alert event type (`sync.*`, `reminder.due`).
    static func subscribers(_ hooks: [HookConfiguration], type: HookEventType) -> [String] {
        hooks.filter { $0.events.contains(type) }.map(\.name)
    }
}
