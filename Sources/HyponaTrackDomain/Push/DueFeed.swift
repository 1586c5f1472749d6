import Foundation
import SQLite

/// The due deliveries of one platform in queue order, read `batchSize` at a time as a sender
/// takes them (after where the last reading stopped, so rows taken and not yet recorded are not
/// read again). A device's next delivery is held back while one of its deliveries is in flight,
/// and dropped once the device is found gone.
final class DueFeed {
    let database: Database
    let platform: PushPlatform
    let clock: any ServerClock
    let batchSize: Int
    /// Told the deliveries still to send at each reading (the `hyponatrack_push_pending` gauge).
    let metrics: PushMetrics?
    private var buffer: [DuePushDelivery] = []
    private var position = 0
    /// Per device, deliveries waiting for its one in flight, in queue order.
    private var held: [Int64: [DuePushDelivery]] = [:]
    /// Held deliveries whose device's send finished: given before anything else.
    private var ready: [DuePushDelivery] = []
    /// Devices with a delivery in flight, or one of theirs in `ready`.
    private var inFlight: Set<Int64> = []
    private var cursor = PushDeliveryRepository.DueCursor.start
    /// When a reading last came back short (nothing more due then): the next waits a little.
    private var drainedAt: ContinuousClock.Instant?
    static let rereadAfter: Duration = .milliseconds(50)

    init(database: Database, platform: PushPlatform, clock: any ServerClock, batchSize: Int, metrics: PushMetrics? = nil) {
        self.metrics = metrics
        self.database = database
        self.platform = platform
        self.clock = clock
        self.batchSize = batchSize
    }

    /// The next delivery to send, or nil when none can go now (none due, or only ones whose
    /// device has a delivery in flight).
    func next(skipping gone: Set<Int64>) throws -> DuePushDelivery? {
        while !ready.isEmpty {
            let d = ready.removeFirst()
            if !gone.contains(d.device.id) { return d }
            drop(d.device.id)
        }
        while true {
            if position == buffer.count {
                guard try read() else { return nil }
            }
            let d = buffer[position]
            position += 1
            if gone.contains(d.device.id) { continue }
            if inFlight.contains(d.device.id) {
                held[d.device.id, default: []].append(d)
                continue
            }
            inFlight.insert(d.device.id)
            return d
        }
    }

    /// `d`'s send finished (its outcome is on the way to the store): the device's next held
    /// delivery, if any, is ready (the device stays busy until that one is given and finished).
    func finished(_ d: DuePushDelivery) {
        let device = d.device.id
        guard var waiting = held[device], !waiting.isEmpty else {
            inFlight.remove(device)
            return
        }
        ready.append(waiting.removeFirst())
        held[device] = waiting.isEmpty ? nil : waiting
    }

    /// A gone device's held deliveries are not sent (they stay pending until their slot ends).
    private func drop(_ device: Int64) {
        held[device] = nil
        inFlight.remove(device)
    }

    /// Reads the next rows after the cursor; false when none are due.
    private func read() throws -> Bool {
        if let drainedAt, ContinuousClock.now - drainedAt < Self.rereadAfter { return false }
        let ms = epochMilliseconds(clock.now())
        let (rows, pending) = try database.read { db in
            (try PushDeliveryRepository.due(db, now: ms, limit: batchSize, platform: platform, after: cursor),
             metrics == nil ? 0 : try PushDeliveryRepository.pendingCount(db))
        }
        metrics?.pending(pending)
        buffer = rows
        position = 0
        if let last = rows.last { cursor = .init(nextAttemptAt: last.nextAttemptAt, id: last.id) }
        drainedAt = rows.count < batchSize ? ContinuousClock.now : nil
        return !rows.isEmpty
    }
}
