import HTJSON
import Synchronization

/// Writes the refused activation attempts counted by `ActivationRefusals` into the audit trail:
/// every minute, one `activation.refused_summary` row per client address that had any ("N
/// refused activation attempts from IP in the last minute": details `{ip, count, outcomes,
/// since}`), so growth is bounded by addresses, not by attempts, and nothing is pruned. A
/// background service; on stop (after the HTTP server has drained) it flushes what is pending.
final class RefusalSummaries: BackgroundService {
    static let intervalSeconds: Double = 60

    let database: Database
    let refusals: ActivationRefusals
    let clock: any ServerClock
    let logger: Logger
    let name = "refusal-summary"
    /// One write transaction of at most `ActivationRefusals.maxRowsPerFlush` rows.
    let stopDeadline: Double = 10
    private let signal = StopSignal()
    /// Epoch ms of the last flush (or of the start): the `since` of the next summaries.
    private let periodStart: Mutex<Int64>

    init(database: Database, refusals: ActivationRefusals, clock: any ServerClock, logger: Logger) {
        self.database = database
        self.refusals = refusals
        self.clock = clock
        self.logger = logger
        periodStart = Mutex(epochMilliseconds(clock.now()))
    }

    func run() {
        while !signal.wait(seconds: Self.intervalSeconds) { flushLogged() }
        flushLogged()
    }

    func requestStop() { signal.requestStop() }

    private func flushLogged() {
        do { try flush(now: clock.now()) } catch {
            logger.error("refused activation attempts could not be summarised in the audit trail; their counts are lost",
                         ["error": "\(error)"])
        }
    }

    /// Writes the pending summaries at `now` in one transaction; returns the rows written.
    @discardableResult
    func flush(now: Double) throws -> Int {
        let ms = epochMilliseconds(now)
        let since = periodStart.withLock { start -> Int64 in defer { start = ms }; return start }
        let summaries = refusals.drain()
        guard !summaries.isEmpty else { return 0 }
        try database.write { db in
            for summary in summaries {
                let outcomes = ActivationRefusals.Outcome.allCases.compactMap { outcome in
                    summary.outcomes[outcome].map { (outcome: outcome.rawValue, count: $0) }
                }
                let details = AuditDetails.RefusedActivations(
                    ip: summary.ip, count: summary.count, outcomes: .init(counts: outcomes), since: iso8601UTC(milliseconds: since),
                    addresses: summary.ip == ActivationRefusals.othersAddress ? summary.addresses : nil)
                try AuditLog.append(db, at: ms, actor: "system", action: .activationRefusedSummary, subject: "ip:\(summary.ip)",
                                    details: details)
            }
        }
        return summaries.count
    }
}
