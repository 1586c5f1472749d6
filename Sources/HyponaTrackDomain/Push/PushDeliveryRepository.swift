import HyponaTrackCore
import SQLite

/// The states of a delivery (docs/product.md, W, "Delivery"); the metric's `outcome` label
/// takes the same words.
public enum PushDeliveryState: String, Sendable, CaseIterable {
    case pending, sent, gone, failed, expired
}

/// A delivery due to be sent, with what its transport needs.
struct DuePushDelivery: Sendable {
    var id: Int64
    var patientId: Int64
    var reminder: PushReminder
    var collapseId: String
    var attempts: Int
    /// When it became due (its place in the queue).
    var nextAttemptAt: Int64
    var device: StoredPushDevice
}

/// A delivery as staff see it (`GET /v1/patients/{studyId}/reminders`).
public struct PushDeliveryRecord: Sendable, Equatable {
    public var deviceId: String
    public var platform: PushPlatform
    public var state: PushDeliveryState
    public var attempts: Int
    public var lastAttemptAt: Int64?
}

/// A reminder with its deliveries, newest first in the staff view.
public struct PushedReminder: Sendable, Equatable {
    public var date: LocalDate
    public var slot: String
    public var kind: String
    public var dueAt: Int64
    public var deliveries: [PushDeliveryRecord]
}

/// Reads and writes `push_deliveries`. Callers own the transaction.
enum PushDeliveryRepository {
    /// One delivery per (reminder, device): a second call for the same pair changes nothing.
    /// Returns whether a row was added.
    @discardableResult
    static func enqueue(_ db: Connection, patientId: Int64, _ r: PushReminder, device: StoredPushDevice, collapseId: String,
                        at ms: Int64) throws -> Bool {
        try db.execute("""
            INSERT OR IGNORE INTO push_deliveries (patient_id, date, reminder, kind, slot, due_at, expires_at, device_id, platform,
                                                   collapse_id, next_attempt_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [patientId, r.date.description, r.key, r.kind, r.slot.rawValue, r.dueAt, r.expiresAt, device.record.deviceId,
                  device.record.platform.rawValue, collapseId, ms])
        return db.changes > 0
    }

    /// Deliveries whose slot ended before they were sent become `expired`; returns how many per platform.
    static func expire(_ db: Connection, now ms: Int64) throws -> [PushPlatform: Int] {
        let rows = try db.query("""
            UPDATE push_deliveries SET state = 'expired', next_attempt_at = NULL
            WHERE next_attempt_at IS NOT NULL AND expires_at <= ? RETURNING platform
            """, [ms])
        var counts: [PushPlatform: Int] = [:]
        for row in rows { if let p = PushPlatform(rawValue: try row.string(0)) { counts[p, default: 0] += 1 } }
        return counts
    }

    /// Where a reading of due deliveries stopped: the last row's `(next_attempt_at, id)`.
    struct DueCursor: Equatable, Sendable {
        var nextAttemptAt: Int64
        var id: Int64
        /// Before every row.
        static let start = DueCursor(nextAttemptAt: .min, id: .min)
    }

    /// The deliveries of `platform` due at `ms` (oldest due first) whose device is still
    /// registered and active, after `cursor` (the rows a sender already took are not read again
    /// while their outcomes are still on the way to the store).
    static func due(_ db: Connection, now ms: Int64, limit: Int, platform: PushPlatform,
                    after cursor: DueCursor = .start) throws -> [DuePushDelivery] {
        try db.query("""
            SELECT d.id, d.patient_id, d.date, d.reminder, d.kind, d.slot, d.due_at, d.expires_at, d.collapse_id, d.attempts,
                   v.id, v.device_id, v.platform, v.address, v.p256dh, v.auth, v.language, v.registered_at, v.last_success_at,
                   d.next_attempt_at
            FROM push_deliveries d
            JOIN push_devices v ON v.patient_id = d.patient_id AND v.device_id = d.device_id AND v.platform = d.platform
            WHERE d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= ? AND d.expires_at > ? AND v.state = 'active'
              AND d.platform = ? AND (d.next_attempt_at, d.id) > (?, ?)
            ORDER BY d.next_attempt_at, d.id LIMIT ?
            """, [ms, ms, platform.rawValue, cursor.nextAttemptAt, cursor.id, limit]).map(decodeDue)
    }

    static func record(_ db: Connection, id: Int64, state: PushDeliveryState, attempts: Int, at ms: Int64, next: Int64?,
                       error: String?) throws {
        try db.execute("""
            UPDATE push_deliveries SET state = ?, attempts = ?, last_attempt_at = ?, next_attempt_at = ?, error = ? WHERE id = ?
            """, [state.rawValue, attempts, ms, next, error, id])
    }

    /// Deliveries still to send (pending, or failed and retried later).
    static func pendingCount(_ db: Connection) throws -> Int {
        Int(try db.queryOne("SELECT COUNT(*) FROM push_deliveries WHERE next_attempt_at IS NOT NULL")?.int64(0) ?? 0)
    }

    /// One patient's pushed reminders of the dates from `from` on, newest first.
    static func reminders(_ db: Connection, patientId: Int64, from: LocalDate) throws -> [PushedReminder] {
        let rows = try db.query("""
            SELECT date, reminder, slot, kind, due_at, device_id, platform, state, attempts, last_attempt_at
            FROM push_deliveries WHERE patient_id = ? AND date >= ? ORDER BY due_at DESC, reminder, id
            """, [patientId, from.description])
        var out: [PushedReminder] = []
        var last: (String, String)?
        for r in rows {
            let key = (try r.string(0), try r.string(1))
            guard let date = LocalDate(key.0), let platform = PushPlatform(rawValue: try r.string(6)),
                  let state = PushDeliveryState(rawValue: try r.string(7)) else { throw StoreCorruption("push_deliveries holds an unknown value") }
            let delivery = PushDeliveryRecord(deviceId: try r.string(5), platform: platform, state: state, attempts: Int(try r.int64(8)),
                                              lastAttemptAt: try r.optionalInt64(9))
            if let l = last, l == key { out[out.count - 1].deliveries.append(delivery); continue }
            out.append(PushedReminder(date: date, slot: try r.string(2), kind: try r.string(3), dueAt: try r.int64(4), deliveries: [delivery]))
            last = key
        }
        return out
    }

    private static func decodeDue(_ r: Row) throws -> DuePushDelivery {
        guard let date = LocalDate(try r.string(2)), let slot = ReminderRules.Deadline(rawValue: try r.string(5)),
              let platform = PushPlatform(rawValue: try r.string(12)) else {
            throw StoreCorruption("push_deliveries holds an unknown date, slot or platform")
        }
        let reminder = PushReminder(kind: try r.string(4), date: date, slot: slot, key: try r.string(3), dueAt: try r.int64(6),
                                    expiresAt: try r.int64(7))
        let address: PushAddress
        if platform == .webpush, let p256dh = try r.optionalString(14), let auth = try r.optionalString(15) {
            address = .webPush(endpoint: try r.string(13), p256dh: p256dh, auth: auth)
        } else {
            address = .token(try r.string(13))
        }
        let record = PushDeviceRecord(deviceId: try r.string(11), platform: platform, language: try r.optionalString(16).flatMap(Language.init),
                                      state: .active, registeredAt: try r.int64(17), lastSuccessAt: try r.optionalInt64(18))
        return DuePushDelivery(id: try r.int64(0), patientId: try r.int64(1), reminder: reminder, collapseId: try r.string(8),
                               attempts: Int(try r.int64(9)), nextAttemptAt: try r.int64(19), device: StoredPushDevice(id: try r.int64(10), patientId: try r.int64(1),
                                                                                        record: record, address: address))
    }
}
