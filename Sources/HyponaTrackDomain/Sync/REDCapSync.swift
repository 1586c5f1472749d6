import Foundation
import Synchronization
import HTJSON
import SQLite

/// Drains the outbox to REDCap as a background service: batches of due rows, paced under the rate
/// cap; a batch is marked sent only after REDCap's 200 with the expected count. Failures by
/// class (docs/redcap.md, "Errors"): transient → exponential backoff with jitter, forever; a validation 400 →
/// split the batch to isolate the offending rows and dead-letter only those; permission, ban,
/// deleted project or TLS failure → halt everything until `sync resume`. A crash at any point
/// leaves the in-flight rows in the outbox, to be re-sent (REDCap imports are idempotent).
final class REDCapSync: BackgroundService {
    struct Settings: Sendable {
        var batchSize = 100
        /// Tell staff when the oldest pending row is older than this.
        var unhealthyAfterSeconds: Double = 3600
        var backoffBase: Double = 2
        var backoffCap: Double = 900
        /// Each backoff is stretched or shrunk by up to this fraction.
        var backoffJitter: Double = 0.25
        /// How long the worker sleeps when there is nothing to do (a wake cuts it short).
        var idlePoll: Double = 1
        /// After a wake, wait this long before sending, so rows committed together travel in one
        /// request (fewer requests against the per-IP limit).
        var linger: Double = 0.25
        /// A request whose outcome is unknown (a kill, timeout, dropped connection, 5xx) may be
        /// applied late, after a newer version of its rows: those rows are sent once more this
        /// long after that request started before they leave the outbox (`redcap.settleSeconds`).
        var settleSeconds: Double = 60
    }

    let database: Database
    let client: REDCapClient
    let settings: Settings
    let logger: Logger
    let metrics: SyncMetrics
    let clock: any ServerClock
    let random: any RandomSource
    /// Queues `sync.unhealthy` / `sync.halted` for the hooks that subscribe to them.
    let events: SyncHookEvents
    let name = "redcap-sync"
    /// A stop waits for the request in flight (REDCap may take a minute on a large import).
    let stopDeadline: Double = 70

    private let signal = StopSignal()
    private let state = Mutex(HealthState())

    struct HealthState {
        /// When the outbox figures (metrics, health) were last read.
        var statusReadAt = -Double.infinity
        /// A halt that REDCap's answer decided but that could not be written yet.
        var unrecordedHalt: UnrecordedHalt?
    }

    /// A halt kept in memory until it is written: meanwhile nothing is sent (REDCap would
    /// refuse the batch again, and under a ban every request counts). Lost in a crash or a stop:
    /// the batch is then sent once more after the start, and REDCap's answer halts again.
    struct UnrecordedHalt: Sendable {
        var failure: REDCapFailure
        var rows: [OutboxRow]
        var at: Int64
    }

    /// The pause after a database error: 5 s, doubling to 60 s while the errors go on.
    static let databaseErrorPause = GrowingPause(first: 5, cap: 60)

    init(database: Database, client: REDCapClient, settings: Settings, logger: Logger, metrics: SyncMetrics,
         clock: any ServerClock, random: any RandomSource = SystemRandomSource(),
         events: SyncHookEvents = SyncHookEvents()) {
        self.database = database
        self.client = client
        self.settings = settings
        self.logger = logger
        self.metrics = metrics
        self.clock = clock
        self.random = random
        self.events = events
    }

    /// New rows are queued: send them now instead of at the next poll.
    func wake() { signal.wake() }

    func requestStop() { signal.requestStop() }

    /// Waits up to `seconds` (a wake cuts it short); after a wake, lingers so rows committed
    /// together go in one request.
    private func idle(_ seconds: Double) {
        if signal.waitForWakeup(seconds: seconds) == .woken && settings.linger > 0 { _ = signal.pause(seconds: settings.linger) }
    }

    /// Sends until asked to stop, then returns after the request in flight.
    func run() {
        logger.notice("redcap sync started", ["url": client.url, "batch_size": String(settings.batchSize),
                                              "max_requests_per_minute": String(client.pacer.perMinute)])
        var errors = Self.databaseErrorPause
        while !signal.isStopRequested {
            do {
                let worked = try cycle()
                let failures = errors.succeeded()
                if failures > 0 { logger.notice("redcap sync: the database works again", ["failures": String(failures)]) }
                if !worked { idle(settings.idlePoll) }
            } catch {
                let pause = errors.failed()
                logger.error("redcap sync: database error", ["error": "\(error)", "failures": String(errors.failures),
                                                             "retry_in_s": String(Int(pause))])
                idle(pause)
            }
        }
    }

    /// One round: sends one batch if any is due. Returns whether it did work.
    func cycle() throws -> Bool {
        if let halt = state.withLock({ $0.unrecordedHalt }) {
            try record(halt)
            logger.notice("redcap sync: the halt is recorded", ["http_status": halt.failure.status.map(String.init) ?? "-"])
            return false
        }
        let now = clock.now()
        let ms = epochMilliseconds(now)
        // The figures for metrics and health count the whole outbox: at most once a second, not
        // before every batch of a long drain.
        if state.withLock({ now - $0.statusReadAt >= 1 }) {
            let status = try database.read { try OutboxRepository.status($0, deadLimit: 0) }
            state.withLock { $0.statusReadAt = now }
            metrics.update(status: status, now: ms)
            try checkHealth(status, now: ms)
        }
        if try database.read({ try OutboxRepository.isHalted($0) }) { return false }
        let rows = try database.read { try OutboxRepository.due($0, now: ms, limit: settings.batchSize) }
        guard !rows.isEmpty else { return false }
        try send(rows)
        return true
    }

    /// Sends a batch; on a validation rejection splits it until the bad rows are alone.
    func send(_ rows: [OutboxRow]) throws {
        guard !signal.isStopRequested, client.pacer.waitForSlot(unless: { signal.isStopRequested }) else { return }
        let data = "[" + rows.map(\.payload).joined(separator: ",") + "]"
        let records = Set(rows.map { $0.record.lowercased() }).count
        // Durable before the request: a crash from here on leaves the rows marked in flight.
        let started = epochMilliseconds(clock.now())
        try database.write { try OutboxRepository.markInFlight($0, rows, at: started) }
        let outcome = client.importRecords(data)
        let ms = epochMilliseconds(clock.now())
        switch outcome {
        case .imported(let count) where count == records:
            let settle = Int64((settings.settleSeconds * 1000).rounded())
            let confirming = try database.write { try OutboxRepository.markSent($0, rows, settleMs: settle, at: ms) }
            metrics.sent(rows: rows.count)
            if confirming > 0 {
                logger.info("redcap sync: rows after an unknown outcome will be sent once more",
                            ["rows": String(confirming), "settle_s": String(settings.settleSeconds)])
            }
        case .imported(let count):
            try postpone(rows, REDCapFailure(status: 200, summary: "REDCap imported \(count) records, expected \(records)"), ms)
        case .transient(let failure):
            try postpone(rows, failure, ms)
        case .rejected(let failure):
            metrics.failure("rejected")
            // REDCap refused the whole request: nothing of it was applied.
            try database.write { try OutboxRepository.concluded($0, rows) }
            if rows.count == 1 {
                // The dead letter keeps REDCap's whole text for staff; the journal gets what
                // cannot quote a value (REDCapFailure).
                try database.write { try OutboxRepository.deadLetter($0, rows[0], error: failure.message, at: ms) }
                logger.warning("redcap sync: row rejected and dead-lettered; `hyponatrack sync status` shows REDCap's message",
                               failure.journal(fields: Self.columns(of: rows[0])).merging(
                                ["record": rows[0].record, "instrument": rows[0].instrument,
                                 "instance": String(rows[0].instance)]) { $1 })
                metrics.deadLettered()
            } else {
                let half = rows.count / 2
                try send(Array(rows[..<half]))
                try send(Array(rows[half...]))
            }
        case .halt(let failure):
            metrics.failure("halt")
            logger.error("redcap sync halted; fix the cause, then run `hyponatrack sync resume`", failure.journal())
            let halt = UnrecordedHalt(failure: failure, rows: rows, at: ms)
            state.withLock { $0.unrecordedHalt = halt }
            try record(halt)
        }
    }

    /// Writes a halt; until that succeeds it stays in memory and `cycle` sends nothing.
    private func record(_ halt: UnrecordedHalt) throws {
        // The halt and its event commit together (or neither).
        let queued = try database.write { db -> Bool in
            try OutboxRepository.concluded(db, halt.rows)                  // refused: nothing applied
            try OutboxRepository.halt(db, reason: halt.failure.message, at: halt.at)
            return try events.enqueue(db, .syncHalted, HookEventData.SyncHalted(reason: halt.failure.message), at: halt.at)
        }
        state.withLock { $0.unrecordedHalt = nil }
        if queued { events.wake() }
    }

    /// The columns a row sends: the only words of REDCap's text the journal may name.
    static func columns(of row: OutboxRow) -> Set<String> {
        Set(REDCapObject.parse(Array(row.payload.utf8))?.members.keys ?? [:].keys)
    }

    private func postpone(_ rows: [OutboxRow], _ failure: REDCapFailure, _ ms: Int64) throws {
        metrics.failure("transient")
        let jittered = retryDelay(attempts: rows.map(\.attempts).max() ?? 0)
        let next = ms + Int64(jittered * 1000)
        try database.write { try OutboxRepository.postpone($0, rows, until: next, error: failure.message, at: ms) }
        logger.warning("redcap sync: transient failure, will retry",
                       failure.journal().merging(["rows": String(rows.count), "retry_in_s": String(format: "%.1f", jittered)]) { $1 })
    }

    /// The wait before retrying a batch whose rows failed up to `attempts` times: exponential
    /// from `backoffBase`, capped at `backoffCap`, jittered.
    func retryDelay(attempts: Int) -> Double {
        let delay = min(settings.backoffCap, settings.backoffBase * pow(2, Double(min(attempts, 20))))
        return random.jitter(delay, by: settings.backoffJitter)
    }

    /// Raises `sync.unhealthy` once per episode (the oldest pending row older than
    /// `unhealthyAfterSeconds`). Whether it was raised is stored with the event, so a restart
    /// does not raise it again; the episode ends when the backlog is younger again.
    private func checkHealth(_ status: SyncOutboxStatus, now ms: Int64) throws {
        let age = status.oldestPendingAt.map { Double(ms - $0) / 1000 } ?? 0
        let unhealthy = age > settings.unhealthyAfterSeconds
        guard unhealthy != status.unhealthyReported else { return }
        let data = HookEventData.SyncUnhealthy(oldestPendingSeconds: age.rounded(), pending: status.pending,
                                               lastFailure: status.lastFailure)
        let (raised, queued) = try database.write { db -> (Bool, Bool) in
            guard try OutboxRepository.markUnhealthyReported(db, unhealthy), unhealthy else { return (false, false) }
            return (true, try events.enqueue(db, .syncUnhealthy, data, at: ms))
        }
        guard raised else { return }
        logger.warning("redcap sync unhealthy: rows are waiting", ["oldest_pending_s": String(Int(age)), "pending": String(status.pending)])
        if queued { events.wake() }
    }
}
