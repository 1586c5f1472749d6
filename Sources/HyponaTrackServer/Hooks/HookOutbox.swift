import Foundation
import HTJSON
import Crypto
import SQLite

/// Queues events for hooks in the caller's transaction: one row per event and hook, with a
/// stable event id (the `webhook-id` every retry repeats). Body: `{type, id, timestamp, data}`;
/// never tokens or secrets.
enum HookOutbox {
    @discardableResult
    static func enqueue(_ db: Connection, type: String, data: JSONValue, hooks: [String], at ms: Int64) throws -> String? {
        guard !hooks.isEmpty else { return nil }
        let id = "evt_" + Crypto.hex(try Crypto.randomBytes(12))
        let body: JSONValue = ["type": .string(type), "id": .string(id), "timestamp": .string(iso8601UTC(milliseconds: ms)), "data": data]
        let text = JSONSerializer.string(body)
        for hook in Set(hooks).sorted() {
            try db.execute("INSERT OR IGNORE INTO hook_outbox (event_id, hook, type, body, created_at) VALUES (?, ?, ?, ?, ?)",
                           [id, hook, type, text, ms])
        }
        return id
    }

    /// The hooks subscribed to a non-alert event type (`sync.*`, `reminder.due`).
    static func subscribers(_ hooks: [HookConfiguration], type: String) -> [String] {
        hooks.filter { $0.events.contains(type) }.map(\.name)
    }
}
