import HTTPServer
import Synchronization
import HyponaTrackDomain
import HyponaTrackWeb

/// Sends one sd_notify datagram (`SystemdNotifier.notify`); tests capture instead.
typealias SystemdNotify = @Sendable (_ state: String) throws -> Void

/// Everything the daemon tells systemd over `$NOTIFY_SOCKET` (sd_notify(3)): `READY=1` with a
/// `STATUS=` line once it serves, `RELOADING=1` + `MONOTONIC_USEC=` and then `READY=1` around
/// a SIGHUP reload, `STOPPING=1` when a stop begins. As a background service it checks
/// liveness every `period` seconds, sends `WATCHDOG=1` after each check that passes (only when
/// systemd asked for it: `$WATCHDOG_USEC` set for this process) and a new `STATUS=` line when
/// the status changes (the sync halts or resumes, patients enrol, a check fails).
///
/// "Daemons should send WATCHDOG=1 … at roughly half the time given in `WATCHDOG_USEC`"
/// (sd_watchdog_enabled(3)); `period` is at most that.
final class SystemdSupervision: BackgroundService {
    let name = "systemd-notify"
    /// A stop waits for the check in flight (one read and one commit).
    let stopDeadline: Double = 10
    /// Nil when systemd does not listen (`$NOTIFY_SOCKET` unset): then nothing is sent.
    private let notify: SystemdNotify?
    /// Seconds between `WATCHDOG=1`s; nil when systemd runs no watchdog for us.
    let watchdogInterval: Double?
    /// Seconds between liveness checks.
    let period: Double
    /// "serving on 127.0.0.1:8750" — the status line's start.
    let serving: String
    private let probe: @Sendable (_ write: Bool) -> Liveness
    private let logger: Logger
    private let signal = StopSignal()

    private struct Reported {
        var status: String?
        var failure: String?
        var notifyFailed = false
    }
    private let reported = Mutex(Reported())

    /// How often the status line is refreshed without a watchdog, and at least as often with one.
    static let statusInterval = 10.0

    init(notify: SystemdNotify?, watchdogInterval: Duration?, serving: String, logger: Logger,
         probe: @escaping @Sendable (_ write: Bool) -> Liveness) {
        self.notify = notify
        let interval = watchdogInterval.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
        self.watchdogInterval = interval
        period = min(interval ?? Self.statusInterval, Self.statusInterval)
        self.serving = serving
        self.logger = logger
        self.probe = probe
    }

    /// A supervision for `$NOTIFY_SOCKET` and `$WATCHDOG_USEC`/`$WATCHDOG_PID` as they are now.
    static func fromEnvironment(serving: String, logger: Logger,
                                probe: @escaping @Sendable (_ write: Bool) -> Liveness) -> SystemdSupervision {
        let notifier = SystemdNotifier.fromEnvironment
        var notify: SystemdNotify?
        if notifier.socketPath != nil { notify = { state in _ = try notifier.notify(state) } }
        return SystemdSupervision(notify: notify, watchdogInterval: SystemdNotifier.watchdogInterval, serving: serving,
                                  logger: logger, probe: probe)
    }

    /// Whether systemd listens (`$NOTIFY_SOCKET` set): otherwise the loop need not run.
    var isSupervised: Bool { notify != nil }

    /// `READY=1` and the first status line.
    func ready() {
        guard isSupervised else { return }
        let status = Self.status(serving, probe(false))
        reported.withLock { $0.status = status }
        send("READY=1\nSTATUS=\(status)")
    }

    /// Before a SIGHUP reload. systemd ≥ 253 wants the monotonic time of the request with it.
    func reloading() {
        send("RELOADING=1\nMONOTONIC_USEC=\(MonotonicDeadline.now.nanoseconds / 1000)")
    }

    /// After a reload, whether the new rules were taken or refused (the old ones still serve).
    func reloaded() { send("READY=1") }

    func stopping() {
        reported.withLock { $0.status = "stopping" }
        send("STOPPING=1\nSTATUS=stopping")
    }

    func run() {
        if watchdogInterval != nil { logger.notice("systemd watchdog on", ["every_s": String(period)]) }
        while !signal.wait(seconds: period) { check() }
    }

    func requestStop() { signal.requestStop() }

    /// One round: the liveness check, `WATCHDOG=1` if it passed and a watchdog runs, the status
    /// line if it changed.
    func check() {
        let liveness = probe(watchdogInterval != nil)
        let status = Self.status(serving, liveness)
        let (statusChanged, failureChanged) = reported.withLock { r -> (Bool, Bool) in
            defer { r.status = status; r.failure = liveness.failure }
            return (r.status != status, r.failure != liveness.failure)
        }
        var state: [String] = []
        if liveness.isAlive && watchdogInterval != nil { state.append("WATCHDOG=1") }
        if statusChanged { state.append("STATUS=\(status)") }
        if !state.isEmpty { send(state.joined(separator: "\n")) }
        guard failureChanged else { return }
        if let failure = liveness.failure {
            let consequence = watchdogInterval == nil ? "" : "; WATCHDOG=1 withheld, systemd restarts the daemon if this lasts"
            logger.error("liveness check failed" + consequence, ["reason": failure])
        } else {
            logger.notice("liveness check passes again")
        }
    }

    /// "serving on 127.0.0.1:8750, 3 patients, sync ok", or what failed.
    static func status(_ serving: String, _ liveness: Liveness) -> String {
        if let failure = liveness.failure { return "unhealthy: \(failure)" }
        let patients = liveness.patients.map { $0 == 1 ? "1 patient" : "\($0) patients" } ?? "patients unknown"
        return "\(serving), \(patients), sync \(liveness.sync.rawValue)"
    }

    /// Sends `state`; a failure is logged once until a send succeeds again (systemd gone, the
    /// socket removed), so a broken socket does not flood the log.
    private func send(_ state: String) {
        guard let notify else { return }
        do {
            try notify(state)
            reported.withLock { $0.notifyFailed = false }
        } catch {
            let first = reported.withLock { r -> Bool in defer { r.notifyFailed = true }; return !r.notifyFailed }
            if first { logger.warning("cannot notify systemd", ["error": "\(error)"]) }
        }
    }
}
