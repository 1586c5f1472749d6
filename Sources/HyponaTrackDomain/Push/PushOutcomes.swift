import Foundation
import HyponaTrackCore
import SQLite
import Synchronization

/// The outcomes of one round of pushes, written as they arrive (docs/product.md, W,
/// "Delivery"): `sent` (the device's last success noted), `gone` (the device disabled and
/// audited, never retried), `failed` with a retry after a jittered backoff or the service's
/// `Retry-After`, or `failed` for good. A transport that sends one at a time has each written as
/// it arrives. For one that multiplexes, one transaction per `batchCount` outcomes or once the
/// oldest waited `batchSeconds`, committed on a writer queue so the transfer loop goes on
/// meanwhile (at 2,000 answers a second the store is not one commit per push, and no stream waits
/// for an fsync); `finish()` waits for the last commit. A crash loses only outcomes not yet
/// written, whose deliveries are sent again with the same collapse id (what the contract allows).
final class PushOutcomes {
    static let batchCount = 32
    static let batchSeconds = 0.02
    /// Batches handed to the writer and not yet committed at most; the loop waits beyond (so a
    /// crash repeats at most this many batches besides the streams in flight).
    static let queuedBatches = 4
    typealias Outcome = (delivery: DuePushDelivery, result: PushSendResult, at: Int64)

    let database: Database
    let logger: Logger
    let metrics: PushMetrics
    let random: any RandomSource
    /// Whether outcomes are written in batches on the writer queue (else each at once, here).
    let batched: Bool
    private var buffer: [Outcome] = []
    private var oldest: ContinuousClock.Instant?
    private let writer = DispatchQueue(label: "push-outcomes")
    private let slots = DispatchSemaphore(value: PushOutcomes.queuedBatches)
    private let failure = FirstFailure()
    /// The devices found gone so far.
    private(set) var gone: Set<Int64> = []

    init(database: Database, logger: Logger, metrics: PushMetrics, random: any RandomSource, batched: Bool) {
        self.batched = batched
        self.database = database
        self.logger = logger
        self.metrics = metrics
        self.random = random
    }

    /// Takes one outcome; writes the waiting ones when enough are waiting or the first waited
    /// long enough. Throws a failed earlier write.
    func add(_ delivery: DuePushDelivery, _ result: PushSendResult, at ms: Int64) throws {
        if let error = failure.error { throw error }
        if case .gone = result { gone.insert(delivery.device.id) }
        guard batched else { return try Self.write([(delivery, result, ms)], database, random, logger, metrics) }
        buffer.append((delivery, result, ms))
        let now = ContinuousClock.now
        if oldest == nil { oldest = now }
        if buffer.count >= Self.batchCount || oldest.map({ now - $0 >= .seconds(Self.batchSeconds) }) == true { handOver() }
    }

    /// Writes what is still waiting and waits until every outcome is committed.
    func finish() throws {
        handOver()
        writer.sync {}
        if let error = failure.error { throw error }
    }

    private func handOver() {
        guard !buffer.isEmpty else { return }
        let batch = buffer
        buffer.removeAll(keepingCapacity: true)
        oldest = nil
        slots.wait()
        writer.async { [database, random, logger, metrics, failure, slots] in
            defer { slots.signal() }
            guard failure.error == nil else { return }
            do { try Self.write(batch, database, random, logger, metrics) } catch { failure.record(error) }
        }
    }

    /// One transaction for `batch`, then its metrics and log lines.
    private static func write(_ batch: [Outcome], _ database: Database, _ random: any RandomSource, _ logger: Logger,
                              _ metrics: PushMetrics) throws {
        try database.write { db in
            for (d, result, ms) in batch { try record(db, d, result, at: ms, random: random) }
        }
        for (d, result, _) in batch { report(d, result, logger, metrics) }
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

    private static func report(_ d: DuePushDelivery, _ result: PushSendResult, _ logger: Logger, _ metrics: PushMetrics) {
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

/// The first error of the writer queue, for the loop to throw.
private final class FirstFailure: Sendable {
    private let value = Mutex<(any Error)?>(nil)
    var error: (any Error)? { value.withLock { $0 } }
    func record(_ error: any Error) { value.withLock { if $0 == nil { $0 = error } } }
}
