import Foundation
import HyponaTrackCore
import HTTPClient
import SQLite

/// Sends the stored push deliveries (docs/product.md, W, "Delivery"): each due row through its
/// platform's transport, then its outcome in one transaction — `sent` (the device's last
/// success noted), `gone` (the device disabled and audited, never retried), `failed` with a
/// retry after a jittered backoff or the service's `Retry-After`, or `failed` for good; a row
/// whose slot ended is `expired`. Rows are stored before they are sent and found again at the
/// next start, so a `kill -9` loses none; one in flight at the crash is sent again with the same
/// collapse id, which replaces the first on the phone.
final class PushDelivery: BackgroundService {
    /// Waits before the 2nd, 3rd, … attempt (seconds), each jittered by ±`jitterFraction`.
    static let schedule: [Double] = [10, 60, 300, 900, 1800]
    static let jitterFraction = 0.2
    static let batchSize = 64

    let database: Database
    let transports: [PushPlatform: any PushTransport]
    let rules: ActiveRules
    let logger: Logger
    let clock: any ServerClock
    let random: any RandomSource
    let metrics: PushMetrics
    let name = "push-delivery"
    let stopDeadline: Double = 35
    private let signal = StopSignal()

    init(database: Database, transports: [PushPlatform: any PushTransport], rules: ActiveRules, logger: Logger, clock: any ServerClock,
         metrics: PushMetrics, random: any RandomSource = SystemRandomSource()) {
        self.database = database
        self.transports = transports
        self.rules = rules
        self.logger = logger
        self.clock = clock
        self.metrics = metrics
        self.random = random
    }

    func run() {
        var errors = GrowingPause(first: 1, cap: 60)
        repeat {
            do {
                while try deliverDue(), !signal.isStopRequested {}
                _ = errors.succeeded()
            } catch {
                let pause = errors.failed()
                logger.error("push delivery: database error", ["error": "\(error)", "retry_in_s": String(Int(pause))])
                if signal.wait(seconds: pause) { break }
            }
        } while !signal.wait(seconds: 1)
    }

    func requestStop() { signal.requestStop() }

    /// New deliveries are queued: look now.
    func wake() { signal.wake() }

    /// Expires what is past its slot, then sends one batch of due rows; returns whether the
    /// batch was full (more may be due).
    @discardableResult
    func deliverDue() throws -> Bool {
        let ms = epochMilliseconds(clock.now())
        let (expired, due, pending) = try database.write { db in
            (try PushDeliveryRepository.expire(db, now: ms), try PushDeliveryRepository.due(db, now: ms, limit: Self.batchSize),
             try PushDeliveryRepository.pendingCount(db))
        }
        for (platform, n) in expired { metrics.counted(platform, .expired, n) }
        metrics.pending(pending)
        let texts = rules.snapshot.rules.instructions
        // A device found gone in this batch gets none of the batch's other deliveries.
        var gone: Set<Int64> = []
        for delivery in due where !gone.contains(delivery.device.id) {
            if signal.isStopRequested { break }
            if case .gone = try send(delivery, texts: texts) { gone.insert(delivery.device.id) }
        }
        return due.count == Self.batchSize
    }

    @discardableResult
    private func send(_ d: DuePushDelivery, texts: InstructionTexts) throws -> PushSendResult {
        let platform = d.device.record.platform
        let message = PushMessage(d.reminder, collapseId: d.collapseId, language: d.device.record.language, texts: texts)
        let result = transports[platform]?.send(message, to: d.device.address, now: Int64(clock.now()))
            ?? .failed("\(platform.rawValue) is not configured")
        let ms = epochMilliseconds(clock.now())
        let attempts = d.attempts + 1
        let fields = ["platform": platform.rawValue, "delivery": String(d.id), "attempt": String(attempts), "kind": d.reminder.kind]
        try database.write { db in
            switch result {
            case .sent:
                try PushDeliveryRepository.record(db, id: d.id, state: .sent, attempts: attempts, at: ms, next: nil, error: nil)
                try PushDeviceRepository.recordSuccess(db, id: d.device.id, at: ms)
            case .gone(let reason):
                try PushDeliveryRepository.record(db, id: d.id, state: .gone, attempts: attempts, at: ms, next: nil, error: reason)
                try PushDeviceRepository.markGone(db, id: d.device.id, at: ms)
                let studyId = try PatientRepository.load(db, id: d.patientId)?.studyId
                try AuditLog.append(db, at: ms, actor: "system", action: .deviceGone, subject: studyId,
                                    details: PushAudit.Removed(deviceId: d.device.record.deviceId, platform: platform.rawValue, reason: reason))
            case .retry(let reason, let after):
                let wait = after.map { min(max($0, 1), 86_400) }
                    ?? random.jitter(Self.schedule[min(d.attempts, Self.schedule.count - 1)], by: Self.jitterFraction)
                try PushDeliveryRepository.record(db, id: d.id, state: .failed, attempts: attempts, at: ms,
                                                  next: ms + Int64(wait * 1000), error: reason)
            case .failed(let reason):
                try PushDeliveryRepository.record(db, id: d.id, state: .failed, attempts: attempts, at: ms, next: nil, error: reason)
            }
        }
        switch result {
        case .sent: metrics.counted(platform, .sent); logger.info("push sent", fields)
        case .gone(let reason): metrics.counted(platform, .gone); logger.notice("push device gone; disabled", fields.merging(["error": reason]) { $1 })
        case .retry(let reason, _): metrics.counted(platform, .failed); logger.warning("push failed; will retry", fields.merging(["error": reason]) { $1 })
        case .failed(let reason): metrics.counted(platform, .failed); logger.error("push failed; not retried", fields.merging(["error": reason]) { $1 })
        }
        return result
    }
}

extension PushDelivery {
    /// The worker with a transport per configured platform; nil when none is configured.
    static func make(configuration push: ServerConfiguration.Push, keys: PushKeys, database: Database, rules: ActiveRules,
                     logger: Logger, clock: any ServerClock, metrics: PushMetrics) -> PushDelivery? {
        var transports: [PushPlatform: any PushTransport] = [:]
        let client = HTTPClient(configuration: HTTPClientConfiguration(
            caFile: push.caFile, userAgent: "HyponaTrack-push", timeout: .seconds(30), connectTimeout: .seconds(10),
            followRedirects: false, maxResponseBytes: 64 * 1024, maxIdleHandles: 8))
        if let webPush = push.webPush, let vapid = keys.vapid {
            transports[.webpush] = WebPushTransport(vapid: vapid, policy: WebPushEndpointPolicy(allowedHosts: webPush.allowedHosts),
                                                    client: client)
        }
        if let apns = push.apns, let key = keys.apns {
            var h2 = HTTPClientConfiguration(caFile: push.caFile, userAgent: "HyponaTrack-push", timeout: .seconds(30),
                                             connectTimeout: .seconds(10), followRedirects: false, maxResponseBytes: 64 * 1024,
                                             maxIdleHandles: 4)
            h2.http2 = true
            transports[.apns] = APNsTransport(key: key, configuration: apns, client: HTTPClient(configuration: h2))
        }
        if let fcm = push.fcm, let account = keys.fcm {
            transports[.fcm] = FCMTransport(account: account, url: fcm.url, client: client)
        }
        guard !push.configuredPlatforms.isEmpty else { return nil }
        return PushDelivery(database: database, transports: transports, rules: rules, logger: logger, clock: clock, metrics: metrics)
    }
}
