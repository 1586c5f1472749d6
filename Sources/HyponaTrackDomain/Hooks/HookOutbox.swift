import Foundation
import HTJSON
import Crypto
import SQLite

/// Queues events for hooks in the caller's transaction: one row per event and hook, with a
/// stable event id (the `webhook-id` every retry repeats). Body: `{type, id, timestamp, data}`
/// with `data` one of `HookEventData`, written once as JSON text; never tokens or secrets.
enum HookOutbox {
    private struct Body<Data: Encodable>: Encodable {
        let type: String
        let id: String
        let timestamp: String
        let data: Data
    }

    @discardableResult
    static func enqueue(_ db: Connection, type: HookEventType, data: some Encodable, hooks: [String], at ms: Int64) throws -> String? {
        guard !hooks.isEmpty else { return nil }
        let id = "evt_" + Crypto.hex(try Crypto.randomBytes(12))
        let text = try JSONTextEncoder.string(Body(type: type.rawValue, id: id, timestamp: iso8601UTC(milliseconds: ms), data: data))
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
