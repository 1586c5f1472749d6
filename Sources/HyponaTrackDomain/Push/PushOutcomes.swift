import Foundation
import HyponaTrackCore
import SQLite

/// The outcomes of one round of pushes, written as they arrive (docs/product.md, W,
/// "Delivery"): `sent` (the device's last success noted), `gone` (the device disabled and
/// audited, never retried), `failed` with a retry after a jittered backoff or the service's
/// `Retry-After`, or `failed` for good. A transport that sends one at a time has each written as
/// it arrives; for one that multiplexes, one transaction per `batchCount` outcomes or once the
/// oldest waited `batchSeconds`, so at 2,000 answers a second the store is not one commit per
/// push; a crash loses only outcomes not yet written, whose deliveries are sent again with the
/// same collapse id (what the contract allows).
final class PushOutcomes {
    static let batchCount = 32
    static let batchSeconds = 0.02

    let database: Database
    let logger: Logger
    let metrics: PushMetrics
    let random: any RandomSource
    /// Outcomes written together at most (1: each as it arrives).
    let flushCount: Int
    private var buffer: [(delivery: DuePushDelivery, result: PushSendResult, at: Int64)] = []
    private var oldest: ContinuousClock.Instant?
    /// The devices found gone so far.
    private(set) var gone: Set<Int64> = []

    init(database: Database, logger: Logger, metrics: PushMetrics, random: any RandomSource, batched: Bool) {
        flushCount = batched ? Self.batchCount : 1
        self.database = database
        self.logger = logger
        self.metrics = metrics
        self.random = random
    }

    /// Takes one outcome; writes the waiting ones when enough are waiting or the first waited long enough.
    func add(_ delivery: DuePushDelivery, _ result: PushSendResult, at ms: Int64) throws {
        if case .gone = result { gone.insert(delivery.device.id) }
        buffer.append((delivery, result, ms))
        let now = ContinuousClock.now
        if oldest == nil { oldest = now }
        if buffer.count >= flushCount || oldest.map({ now - $0 >= .seconds(Self.batchSeconds) }) == true { try flush() }
    }

    /// Writes every waiting outcome in one transaction, then counts and logs them.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        let batch = buffer
        try database.write { db in
            for (d, result, ms) in batch { try Self.record(db, d, result, at: ms, random: random) }
        }
        buffer.removeAll(keepingCapacity: true)
        oldest = nil
        for (d, result, _) in batch { report(d, result) }
    }

    private static func record(_ db: Connection, _ d: DuePushDelivery, _ result: PushSendResult, at ms: Int64,
                               random: any RandomSource) throws {
        let attempts = d.attempts + 1
        let platform = d.device.record.platform
        switch result {
        case .sent:
            try PushDeliveryRepository.record(db, id: d.id, state: .sent, attempts: attempts, at: ms, next: nil, error: nil)
            try PushDeviceRepository.recordSuccess(db, id: d.device.id, at: ms)
        case .gone(let reason):
            try PushDeliveryRepository.record(db, id: d.id, state: .gone, attempts: attempts, at: ms, next: nil, error: reason)
            // Audited once per device: a round sends a device one delivery at most.
            try PushDeviceRepository.markGone(db, id: d.device.id, at: ms)
            let studyId = try PatientRepository.load(db, id: d.patientId)?.studyId
            try AuditLog.append(db, at: ms, actor: "system", action: .deviceGone, subject: studyId,
                                details: PushAudit.Removed(deviceId: d.device.record.deviceId, platform: platform.rawValue, reason: reason))
        case .retry(let reason, let after):
            let wait = after.map { min(max($0, 1), 86_400) }
                ?? random.jitter(PushDelivery.schedule[min(d.attempts, PushDelivery.schedule.count - 1)], by: PushDelivery.jitterFraction)
            try PushDeliveryRepository.record(db, id: d.id, state: .failed, attempts: attempts, at: ms,
                                              next: ms + Int64(wait * 1000), error: reason)
        case .failed(let reason):
            try PushDeliveryRepository.record(db, id: d.id, state: .failed, attempts: attempts, at: ms, next: nil, error: reason)
        }
    }

    private func report(_ d: DuePushDelivery, _ result: PushSendResult) {
        let platform = d.device.record.platform
        let fields = ["platform": platform.rawValue, "delivery": String(d.id), "attempt": String(d.attempts + 1), "kind": d.reminder.kind]
        switch result {
        case .sent: metrics.counted(platform, .sent); logger.info("push sent", fields)
        case .gone(let reason): metrics.counted(platform, .gone); logger.notice("push device gone; disabled", fields.merging(["error": reason]) { $1 })
        case .retry(let reason, _): metrics.counted(platform, .failed); logger.warning("push failed; will retry", fields.merging(["error": reason]) { $1 })
        case .failed(let reason): metrics.counted(platform, .failed); logger.error("push failed; not retried", fields.merging(["error": reason]) { $1 })
        }
    }
}
