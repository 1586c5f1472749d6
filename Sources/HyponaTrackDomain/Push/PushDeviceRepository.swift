import HyponaTrackCore
import SQLite

/// A device row with what the senders need beside what people see.
struct StoredPushDevice: Sendable, Equatable {
    var id: Int64
    var patientId: Int64
    var record: PushDeviceRecord
    var address: PushAddress
}

/// Reads and writes `push_devices`. Callers own the transaction.
enum PushDeviceRepository {
    private static let select = """
        SELECT id, patient_id, device_id, platform, address, p256dh, auth, language, state, registered_at, last_success_at
        FROM push_devices
        """

    static func load(_ db: Connection, patientId: Int64, deviceId: String) throws -> StoredPushDevice? {
        try db.queryOne("\(select) WHERE patient_id = ? AND device_id = ?", [patientId, deviceId]).map(decode)
    }

    /// The device registered with this token or endpoint, whoever's it is.
    static func load(_ db: Connection, platform: PushPlatform, address: String) throws -> StoredPushDevice? {
        try db.queryOne("\(select) WHERE platform = ? AND address = ?", [platform.rawValue, address]).map(decode)
    }

    /// One patient's devices in the order they were first registered.
    static func list(_ db: Connection, patientId: Int64) throws -> [StoredPushDevice] {
        try db.query("\(select) WHERE patient_id = ? ORDER BY registered_at, id", [patientId]).map(decode)
    }

    /// The patients with at least one active device (the board's "no reminder channel").
    static func patientsWithActiveDevice(_ db: Connection) throws -> Set<Int64> {
        Set(try db.query("SELECT DISTINCT patient_id FROM push_devices WHERE state = 'active'").map { try $0.int64(0) })
    }

    static func count(_ db: Connection, patientId: Int64) throws -> Int {
        Int(try db.queryOne("SELECT COUNT(*) FROM push_devices WHERE patient_id = ?", [patientId])?.int64(0) ?? 0)
    }

    static func insert(_ db: Connection, _ c: RegisterDevice, at ms: Int64) throws {
        let (p256dh, auth) = keys(c.address)
        try db.execute("""
            INSERT INTO push_devices (patient_id, device_id, platform, address, p256dh, auth, language, registered_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [c.patientId, c.deviceId, c.platform.rawValue, c.address.key, p256dh, auth, c.language?.rawValue, ms, ms])
    }

    /// A new token or subscription for a registered device: active again, its success forgotten.
    static func replace(_ db: Connection, id: Int64, _ c: RegisterDevice, at ms: Int64) throws {
        let (p256dh, auth) = keys(c.address)
        try db.execute("""
            UPDATE push_devices SET platform = ?, address = ?, p256dh = ?, auth = ?, language = ?, state = 'active',
                updated_at = ?, last_success_at = CASE WHEN address = ? AND platform = ? THEN last_success_at END
            WHERE id = ?
            """, [c.platform.rawValue, c.address.key, p256dh, auth, c.language?.rawValue, ms, c.address.key, c.platform.rawValue, id])
    }

    /// Active devices of a patient (the ones a reminder goes to).
    static func active(_ db: Connection, patientId: Int64) throws -> [StoredPushDevice] {
        try list(db, patientId: patientId).filter { $0.record.state == .active }
    }

    /// The push service said the token or subscription no longer exists.
    static func markGone(_ db: Connection, id: Int64, at ms: Int64) throws {
        try db.execute("UPDATE push_devices SET state = 'gone', updated_at = ? WHERE id = ?", [ms, id])
    }

    static func recordSuccess(_ db: Connection, id: Int64, at ms: Int64) throws {
        try db.execute("UPDATE push_devices SET last_success_at = ? WHERE id = ?", [ms, id])
    }

    static func delete(_ db: Connection, id: Int64) throws {
        try db.execute("DELETE FROM push_devices WHERE id = ?", [id])
    }

    private static func keys(_ address: PushAddress) -> (String?, String?) {
        if case .webPush(_, let p256dh, let auth) = address { return (p256dh, auth) }
        return (nil, nil)
    }

    private static func decode(_ r: Row) throws -> StoredPushDevice {
        guard let platform = PushPlatform(rawValue: try r.string(3)), let state = PushDeviceState(rawValue: try r.string(8)) else {
            throw StoreCorruption("push_devices holds an unknown platform or state")
        }
        let address: PushAddress
        if platform == .webpush, let p256dh = try r.optionalString(5), let auth = try r.optionalString(6) {
            address = .webPush(endpoint: try r.string(4), p256dh: p256dh, auth: auth)
        } else {
            address = .token(try r.string(4))
        }
        let record = PushDeviceRecord(deviceId: try r.string(2), platform: platform, language: try r.optionalString(7).flatMap(Language.init),
                                      state: state, registeredAt: try r.int64(9), lastSuccessAt: try r.optionalInt64(10))
        return StoredPushDevice(id: try r.int64(0), patientId: try r.int64(1), record: record, address: address)
    }
}
