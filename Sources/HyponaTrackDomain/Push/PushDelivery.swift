import Foundation
import HyponaTrackCore
import HTTPClient
import SQLite

/// Sends the stored push deliveries (docs/product.md, W, "Delivery"): each due row through its
/// platform's transport, then its outcome in one transaction — `sent` (the device's last
/// success noted), `gone` (the device disabled and audited, never retried), `failed` with a
/// retry after a jittered backoff or the service's `Retry-After`, or `failed` for good; a row
/// whose slot ended is `expired`. Rows are stored before they are sent and found again at the
/// next start, so a `kill -9` loses none; one in flight at the crash, or answered but not yet
/// recorded (outcomes are written a few at a time), is sent again with the same collapse id,
/// which replaces the first on the phone.
final class PushDelivery: BackgroundService {
    /// Waits before the 2nd, 3rd, … attempt (seconds), each jittered by ±`jitterFraction`.
    static let schedule: [Double] = [10, 60, 300, 900, 1800]
    static let jitterFraction = 0.2
    static let batchSize = 2048

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
    /// batch was full (more may be due). The batch goes out in rounds — each device's first
    /// due delivery, then each one's second, … — so a device found gone in one round gets none
    /// of the batch's later deliveries; within a round each platform's transport sends its
    /// share at once where it multiplexes (APNs).
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
        var gone: Set<Int64> = []
        for round in Self.rounds(due) {
            for (platform, deliveries) in Dictionary(grouping: round.filter { !gone.contains($0.device.id) }, by: \.device.record.platform) {
                if signal.isStopRequested { return false }
                gone.formUnion(try send(deliveries, on: platform, texts: texts))
            }
        }
        return due.count == Self.batchSize
    }

    /// Each device's first delivery, then each one's second, … (in the order given).
    static func rounds(_ due: [DuePushDelivery]) -> [[DuePushDelivery]] {
        var rounds: [[DuePushDelivery]] = [], seen: [Int64: Int] = [:]
        for d in due {
            let n = seen[d.device.id, default: 0]
            seen[d.device.id] = n + 1
            if n == rounds.count { rounds.append([]) }
            rounds[n].append(d)
        }
        return rounds
    }

    /// Sends `deliveries` through the platform's transport and records each outcome as it
    /// arrives, a few at a time (`PushOutcomes`); returns the devices found gone.
    private func send(_ deliveries: [DuePushDelivery], on platform: PushPlatform, texts: InstructionTexts) throws -> Set<Int64> {
        let items = deliveries.map { d in
            PushItem(message: PushMessage(d.reminder, collapseId: d.collapseId, language: d.device.record.language, texts: texts),
                     address: d.device.address)
        }
        let transport = transports[platform]
        let outcomes = PushOutcomes(database: database, logger: logger, metrics: metrics, random: random,
                                    batched: transport?.multiplexes ?? false)
        guard let transport else {
            for d in deliveries { try outcomes.add(d, .failed("\(platform.rawValue) is not configured"), at: epochMilliseconds(clock.now())) }
            try outcomes.finish()
            return []
        }
        var failure: (any Error)?
        transport.send(items, now: Int64(clock.now())) { i, result in
            guard failure == nil else { return }
            do { try outcomes.add(deliveries[i], result, at: epochMilliseconds(clock.now())) } catch { failure = error }
        }
        try outcomes.finish()
        if let failure { throw failure }
        return outcomes.gone
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
            let h2 = HTTPClientConfiguration(caFile: push.caFile, userAgent: "HyponaTrack-push", timeout: .seconds(30),
                                             connectTimeout: .seconds(10), followRedirects: false, maxResponseBytes: 64 * 1024)
            transports[.apns] = APNsTransport(key: key, configuration: apns,
                                              client: MultiplexedHTTPClient(configuration: h2, maxConnections: 4, maxStreams: 100))
        }
        if let fcm = push.fcm, let account = keys.fcm {
            transports[.fcm] = FCMTransport(account: account, url: fcm.url, client: client)
        }
        guard !push.configuredPlatforms.isEmpty else { return nil }
        return PushDelivery(database: database, transports: transports, rules: rules, logger: logger, clock: clock, metrics: metrics)
    }
}
