import Crypto
import HyponaTrackCore
import SQLite

/// Queues a due reminder's pushes, one delivery per active device, in the scheduler's
/// transaction for the patient (so a restart neither loses nor repeats the decision), whether or
/// not a hook subscribes to `reminder.due` (settled W). A reminder whose slot already ended (after
/// downtime) is not queued; one due while the patient has no device is looked at again at the
/// next tick, so a device registered before the slot ends still gets it.
struct PushQueue: Sendable {
    let database: Database

    /// Queues `reminder` once (the scheduler's mark `push@KEY`); returns whether a delivery was added.
    func enqueue(_ db: Connection, patientId: Int64, _ reminder: PushReminder, now ms: Int64) throws -> Bool {
        let mark = "push@\(reminder.key)"
        guard try !SchedulerRepository.isMarked(db, patientId: patientId, date: reminder.date, mark: mark) else { return false }
        let devices = try PushDeviceRepository.active(db, patientId: patientId)
        let outcome: String
        var added = false
        if ms >= reminder.expiresAt {
            outcome = "expired"
        } else if devices.isEmpty {
            // Not marked: a device registered later in the slot still gets it.
            return false
        } else {
            let collapseId = collapseId(patientId: patientId, reminder)
            for device in devices {
                if try PushDeliveryRepository.enqueue(db, patientId: patientId, reminder, device: device, collapseId: collapseId, at: ms) {
                    added = true
                }
            }
            outcome = "queued"
        }
        try SchedulerRepository.mark(db, patientId: patientId, date: reminder.date, mark: mark, outcome: outcome, at: ms)
        return added
    }

    /// `apns-collapse-id` and Web Push `Topic`: an HMAC of (patient, reminder) under a key derived
    /// from the audit key for this one purpose — the same across restarts, never the study ID,
    /// and unguessable to whoever sees the notification. 32 base64url characters (RFC 8030 §5.4
    /// allows at most 32; APNs at most 64 bytes).
    func collapseId(patientId: Int64, _ r: PushReminder) -> String {
        let mac = database.auditKey.mac(Array("push-collapse-id:v1:\(patientId):\(r.date):\(r.key)".utf8))
        return Base64.url.encode(Array(mac.prefix(24)))
    }
}
