import Foundation
import SQLite

/// Delivers the hook outbox: one worker per hook (``HookWorker``, each a background service on
/// its own thread), so a slow or failing endpoint never holds up another (or the API). Retries
/// follow the Standard Webhooks schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, …, or the
/// receiver's `retry-after`) for up to 24 hours, then the row is a dead letter shown by
/// `hyponatrack hooks status`. A 410 disables the endpoint. Delivered rows are kept (marked) so a
/// restart never sends them again; an in-flight row is re-sent after a crash with the same event
/// id, which receivers de-duplicate. An outcome that cannot be written is kept in memory and
/// written later (``UnrecordedHookOutcomes``); meanwhile its row is not sent again sooner than
/// that outcome allows.
final class HookDelivery: BackgroundService {
    static let schedule: [Double] = [5, 300, 1800, 7200, 18_000, 36_000]
    static let giveUpAfterSeconds: Double = 24 * 3600
    /// Each scheduled wait is stretched or shrunk by up to this fraction.
    static let jitterFraction = 0.1

    let database: Database
    let transports: [String: any HookTransport]
    let logger: Logger
    let clock: any ServerClock
    let random: any RandomSource
    let name = "hook-delivery"
    /// A worker stops after the delivery in flight: a webhook's or an e-mail's timeout is 30 s;
    /// a command (whose `timeoutSeconds` may be up to 300) is ended at the stop instead and its
    /// event is due again at the next start (``DeliveryResult/interrupted(_:)``).
    let workerStopDeadline: Double = 35
    /// One per hook, so a wake reaches every worker whether it is waiting or busy.
    private let signals: [String: StopSignal]
    private let stopping = StopSignal()
    /// Outcomes decided but not yet written (``UnrecordedHookOutcomes``).
    let unrecorded = UnrecordedHookOutcomes()

    init(database: Database, transports: [String: any HookTransport], logger: Logger, clock: any ServerClock,
         random: any RandomSource = SystemRandomSource()) {
        self.database = database
        self.transports = transports
        self.logger = logger
        self.clock = clock
        self.random = random
        signals = Dictionary(uniqueKeysWithValues: transports.keys.map { ($0, StopSignal()) })
    }

    /// The workers stop together, so this is one worker's deadline plus a margin for the
    /// workers' group to report a late one first.
    var stopDeadline: Double { workerStopDeadline + 1 }

    /// Runs the workers, one per hook, until asked to stop; then stops them together.
    func run() {
        let workers = ServiceGroup(transports.keys.sorted().map { HookWorker(hook: $0, delivery: self, signal: signals[$0]!) },
                                   order: .together, logger: logger)
        workers.start()
        stopping.waitForStop()
        workers.stop()
    }

    func requestStop() { stopping.requestStop() }

    /// New rows are queued: every worker looks now instead of at its next poll.
    func wake() {
        for signal in signals.values { signal.wake() }
    }

    /// The wait before the next attempt of a row that failed `attempts` times before this
    /// attempt: the receiver's `retry-after` (1 s to a day) or the schedule's step, jittered.
    func retryDelay(attempts: Int, retryAfter: Double?) -> Double {
        if let retryAfter { return min(max(retryAfter, 1), 86_400) }
        return random.jitter(Self.schedule[min(attempts, Self.schedule.count - 1)], by: Self.jitterFraction)
    }

    /// Delivers the oldest due row of one hook; returns whether there was one. First writes the
    /// outcomes earlier attempts could not write, when their pause is over.
    @discardableResult
    func deliverNext(_ name: String) throws -> Bool {
        let now = clock.now()
        let ms = epochMilliseconds(now)
        writeUnrecorded(name, at: ms)
        // A 410 whose outcome is not written yet: the endpoint must not be called again.
        if unrecorded.isDisabled(hook: name) { return false }
        let held = unrecorded.heldRows(hook: name, at: ms)
        let (due, disabled) = try database.read { db in
            (try HookOutboxRepository.nextDue(db, hook: name, now: ms, excluding: held),
             try HookOutboxRepository.disabledReason(db, hook: name))
        }
        guard let due else { return false }
        let attempts = max(due.attempts, unrecorded.attempts(of: due.id, hook: name) ?? 0) + 1
        if let disabled {
            try database.write { db in
                try HookOutboxRepository.markDead(db, id: due.id, reason: "the endpoint is disabled: \(disabled)", attempts: attempts)
            }
            return true
        }
        guard let transport = transports[name] else { return false }
        let signal = signals[name]
        let result = transport.deliver(eventId: due.eventId, timestamp: Int64(now), body: Array(due.body.utf8),
                                       stopping: { signal?.isStopRequested ?? false })
        let outcome = outcome(of: result, createdAt: due.createdAt, attempts: attempts - 1, at: epochMilliseconds(clock.now()))
        switch result {
        case .delivered: logger.info("hook delivered", ["hook": name, "event_id": due.eventId])
        case .retry(let reason, _): logger.warning("hook delivery failed, will retry", ["hook": name, "event_id": due.eventId, "error": reason])
        case .gone: logger.error("hook endpoint answered 410 Gone and is now disabled", ["hook": name])
        case .failed(let reason): logger.error("hook delivery failed permanently", ["hook": name, "event_id": due.eventId, "error": reason])
        case .interrupted(let reason):
            logger.notice("hook delivery interrupted by the stop; the event is sent again at the next start",
                          ["hook": name, "event_id": due.eventId, "error": reason])
        }
        do {
            try database.write { db in try outcome.write(db, id: due.id, hook: name, attempts: attempts) }
            unrecorded.recorded([due.id], hook: name)
        } catch {
            unrecorded.hold(.init(id: due.id, eventId: due.eventId, outcome: outcome, attempts: attempts), hook: name,
                            at: epochMilliseconds(clock.now()))
            logger.error("hook delivery outcome could not be recorded; the event is not sent again before its outcome allows",
                         ["hook": name, "event_id": due.eventId, "outcome": outcome.name, "error": "\(error)"])
        }
        return true
    }

    /// What the outbox does after an attempt that ended at `ms` with `result`, for a row
    /// created at `createdAt` that had failed `attempts` times before.
    private func outcome(of result: DeliveryResult, createdAt: Int64, attempts: Int, at ms: Int64) -> HookOutcome {
        switch result {
        case .delivered:
            return .delivered(at: ms)
        case .retry(let reason, let retryAfter):
            let age = Double(ms - createdAt) / 1000
            if age >= Self.giveUpAfterSeconds { return .dead(reason: "gave up after 24 h: \(reason)") }
            let wait = retryDelay(attempts: attempts, retryAfter: retryAfter)
            return .postponed(until: ms + Int64(wait * 1000), error: reason)
        case .gone(let reason):
            return .gone(reason: reason, at: ms)
        case .failed(let reason):
            return .dead(reason: reason)
        case .interrupted(let reason):
            return .postponed(until: ms, error: reason)
        }
    }

    /// Writes the outcomes of one hook that could not be written before, if their pause is over
    /// (or, at a stop, `evenIfPaused`).
    func writeUnrecorded(_ name: String, at ms: Int64, evenIfPaused: Bool = false) {
        let entries = unrecorded.due(hook: name, at: evenIfPaused ? .max : ms)
        guard !entries.isEmpty else { return }
        do {
            try database.write { db in
                for e in entries { try e.outcome.write(db, id: e.id, hook: name, attempts: e.attempts) }
            }
            unrecorded.recorded(entries.map(\.id), hook: name)
            logger.notice("hook delivery outcomes recorded late", ["hook": name, "events": String(entries.count)])
        } catch {
            let pause = unrecorded.writeFailed(hook: name, at: ms)
            logger.error("hook delivery outcomes still cannot be recorded; trying again later",
                         ["hook": name, "events": String(entries.count), "retry_in_s": String(Int(pause)), "error": "\(error)"])
        }
    }

    /// `hyponatrack hooks status`.
    static func status(_ db: Connection, hooks: [HookConfiguration]) throws -> [HookStatus] {
        try hooks.map { hook in HookStatus(hook: hook, summary: try HookOutboxRepository.summary(db, hook: hook.name)) }
    }
}

/// Delivers one hook's rows until asked to stop: the next due row at once, else a wait of up to
/// a second (a wake cuts it short) before looking again. A database error waits a growing pause
/// (1 s, 2 s, 4 s … 60 s; a wake still cuts it short), each logged with the count of failures
/// in a row, and the first success after them is logged once: a failing database is neither
/// spun on, nor logged every second, nor silent.
struct HookWorker: BackgroundService {
    let hook: String
    let delivery: HookDelivery
    let signal: StopSignal
    /// How long an idle worker waits before looking for due rows again (retries fall due without a wake).
    static let idlePollSeconds: Double = 1
    static let maxErrorPauseSeconds: Double = 60

    var name: String { "hook-\(hook)" }
    var stopDeadline: Double { delivery.workerStopDeadline }

    func run() {
        var errors = GrowingPause(first: Self.idlePollSeconds, cap: Self.maxErrorPauseSeconds)
        while !signal.isStopRequested {
            do {
                let worked = try delivery.deliverNext(hook)
                let failures = errors.succeeded()
                if failures > 0 { delivery.logger.notice("hook delivery: the database works again", ["hook": hook, "failures": String(failures)]) }
                if !worked { signal.wait(seconds: Self.idlePollSeconds) }
            } catch {
                let pause = errors.failed()
                delivery.logger.error("hook delivery: database error", ["hook": hook, "error": "\(error)",
                                                                        "failures": String(errors.failures),
                                                                        "retry_in_s": String(Int(pause))])
                signal.wait(seconds: pause)
            }
        }
        // One last try for outcomes still only in memory, which a stop would lose.
        delivery.writeUnrecorded(hook, at: epochMilliseconds(delivery.clock.now()), evenIfPaused: true)
    }

    func requestStop() { signal.requestStop() }
}
