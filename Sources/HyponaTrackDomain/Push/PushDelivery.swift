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
                try deliverDue()
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

    /// Expires what is past its slot, then sends what is due, platform by platform, until
    /// nothing more is (or a stop is requested).
    ///
    /// Each platform's due rows stream through its transport (``DueFeed``): read from the store
    /// `batchSize` at a time as the sender takes them, so a multiplexing transport keeps its
    /// streams full across batches instead of waiting for the slowest push of each. A device has
    /// one delivery in flight at a time, so one found gone gets none of the later ones.
    func deliverDue() throws {
        let ms = epochMilliseconds(clock.now())
        let (expired, pending) = try database.write { db in
            (try PushDeliveryRepository.expire(db, now: ms), try PushDeliveryRepository.pendingCount(db))
        }
        for (platform, n) in expired { metrics.counted(platform, .expired, n) }
        metrics.pending(pending)
        guard pending > 0 else { return }
        let texts = rules.snapshot.rules.instructions
        for platform in PushPlatform.allCases where !signal.isStopRequested {
            try send(DueFeed(database: database, platform: platform, clock: clock, batchSize: Self.batchSize, metrics: metrics), texts: texts)
        }
    }

    /// Sends what `feed` gives through its platform's transport and records each outcome as it
    /// arrives, a few at a time (`PushOutcomes`).
    private func send(_ feed: DueFeed, texts: InstructionTexts) throws {
        let platform = feed.platform
        let transport = transports[platform]
        let outcomes = PushOutcomes(database: database, logger: logger, metrics: metrics, random: random,
                                    batched: transport?.multiplexes ?? false)
        var failure: (any Error)?
        var taken: [Int: DuePushDelivery] = [:], number = 0
        let next = { [signal] () -> (Int, DuePushDelivery)? in
            guard failure == nil, !signal.isStopRequested else { return nil }
            do {
                guard let d = try feed.next(skipping: outcomes.gone) else { return nil }
                number += 1
                taken[number] = d
                return (number, d)
            } catch {
                failure = error
                return nil
            }
        }
        let record = { [clock] (i: Int, result: PushSendResult) in
            guard let d = taken.removeValue(forKey: i) else { return }
            feed.finished(d)
            guard failure == nil else { return }
            do { try outcomes.add(d, result, at: epochMilliseconds(clock.now())) } catch { failure = error }
        }
        if let transport {
            transport.stream(next: {
                next().map { i, d in
                    (i, PushItem(message: PushMessage(d.reminder, collapseId: d.collapseId, language: d.device.record.language, texts: texts),
                                 address: d.device.address))
                }
            }, now: Int64(clock.now()), done: record)
        } else {
            while let (i, _) = next() { record(i, .failed("\(platform.rawValue) is not configured")) }
        }
        try outcomes.finish()
        if let failure { throw failure }
    }
}

extension PushDelivery {
    /// The worker with a transport per configured platform; nil when none is configured.
    static func make(configuration push: ServerConfiguration.Push, keys: PushKeys, database: Database, rules: ActiveRules,
                     logger: Logger, clock: any ServerClock, metrics: PushMetrics) -> PushDelivery? {
        var transports: [PushPlatform: any PushTransport] = [:]
        let configuration = HTTPClientConfiguration(
            caFile: push.caFile, userAgent: "HyponaTrack-push", timeout: .seconds(30), connectTimeout: .seconds(10),
            followRedirects: false, maxResponseBytes: 64 * 1024, maxIdleHandles: 8)
        if let webPush = push.webPush, let vapid = keys.vapid {
            transports[.webpush] = WebPushTransport(vapid: vapid, policy: WebPushEndpointPolicy(allowedHosts: webPush.allowedHosts),
                                                    client: MultiplexedPush.client(configuration, manyHosts: true))
        }
        if let apns = push.apns, let key = keys.apns {
            transports[.apns] = APNsTransport(key: key, configuration: apns, client: MultiplexedPush.client(configuration))
        }
        if let fcm = push.fcm, let account = keys.fcm {
            transports[.fcm] = FCMTransport(account: account, url: fcm.url, client: HTTPClient(configuration: configuration),
                                            sender: MultiplexedPush.client(configuration))
        }
        guard !push.configuredPlatforms.isEmpty else { return nil }
        return PushDelivery(database: database, transports: transports, rules: rules, logger: logger, clock: clock, metrics: metrics)
    }
}
