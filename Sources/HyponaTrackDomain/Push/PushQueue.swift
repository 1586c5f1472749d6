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

    /// What `enqueue` did.
    enum Outcome: Equatable {
        /// Deliveries were stored (one per active device).
        case queued
        /// Queued or given up before (the scheduler's mark `push@KEY`).
        case already
        /// Its slot had ended: recorded, nothing stored.
        case expired
        /// The patient has no active device: not recorded, looked at again at the next tick.
        case noDevice
    }

    /// Queues `reminder` once (the scheduler's mark `push@KEY` on its date).
    @discardableResult
    func enqueue(_ db: Connection, patientId: Int64, _ reminder: PushReminder, now ms: Int64) throws -> Outcome {
        let mark = "push@\(reminder.key)"
        guard try !SchedulerRepository.isMarked(db, patientId: patientId, date: reminder.date, mark: mark) else { return .already }
        let outcome: Outcome
        if ms >= reminder.expiresAt {
            outcome = .expired
        } else {
            let devices = try PushDeviceRepository.active(db, patientId: patientId)
            // Not marked: a device registered later in the slot still gets it.
            guard !devices.isEmpty else { return .noDevice }
            let collapseId = collapseId(patientId: patientId, reminder)
            for device in devices {
                try PushDeliveryRepository.enqueue(db, patientId: patientId, reminder, device: device, collapseId: collapseId, at: ms)
            }
            outcome = .queued
        }
        try SchedulerRepository.mark(db, patientId: patientId, date: reminder.date, mark: mark,
                                     outcome: outcome == .queued ? "queued" : "expired", at: ms)
        return outcome
    }

    /// The silence nudge (settled W): once `silenceNudgeHours` have passed since the later of
    /// activation and the patient's last submission, one nudge per silent stretch (the mark
    /// `nudge@<start ms>` on the stretch's first date), held while quiet hours last, outside the
    /// day's reminder cap. The caller asks only during monitoring.
    func nudgeIfDue(_ db: Connection, patientId: Int64, activatedAt: Int64, today: LocalDate, zone: ZoneRules,
                    rules: ReminderRules, now: Double) throws -> Bool {
        let start = max(activatedAt, try DayRepository.lastSubmittedAt(db, patientId: patientId) ?? 0)
        let ms = epochMilliseconds(now)
        guard ms >= start + Int64(rules.silenceNudgeHours * 3_600_000) else { return false }
        let at = zone.timestamp(atEpochSeconds: now)
        guard !rules.isQuiet(at.localTime) else { return false }
        let stretch = zone.localDate(atEpochSeconds: Double(start) / 1000), mark = "nudge@\(start)"
        guard try !SchedulerRepository.isMarked(db, patientId: patientId, date: stretch, mark: mark) else { return false }
        let outcome = try enqueue(db, patientId: patientId, PushReminder(nudgeAt: at, date: today, key: mark, rules: rules, zone: zone),
                                  now: ms)
        guard outcome != .noDevice else { return false }
        try SchedulerRepository.mark(db, patientId: patientId, date: stretch, mark: mark, outcome: "nudged", at: ms)
        return outcome == .queued
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
