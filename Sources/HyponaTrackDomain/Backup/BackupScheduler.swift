import Foundation
import Synchronization

/// Backups on a schedule (`backup.everyMinutes`; settled T): the first runs `everyMinutes` after
/// the start or after the newest backup in the directory, whichever is later, and each next one
/// `everyMinutes` after the later of the last attempt and the newest backup (an on-demand backup
/// counts). Time is injected: `tick(now:)` is what tests drive; as a background service it looks
/// at most every `pollSeconds` on the given clock.
final class BackupScheduler: BackgroundService {
    let service: BackupService
    let everySeconds: Double
    let clock: any ServerClock
    let logger: Logger
    let name = "backup"
    /// A stop waits for the backup in flight (a copy and its checks).
    let stopDeadline: Double = 120
    /// How long the service sleeps at most before looking at the clock again.
    static let pollSeconds: Double = 30
    private let signal = StopSignal()
    /// When the next scheduled backup is due (epoch seconds).
    private let due: Mutex<Double>

    init(service: BackupService, everyMinutes: Int, clock: any ServerClock, logger: Logger) {
        self.service = service
        everySeconds = Double(everyMinutes) * 60
        self.clock = clock
        self.logger = logger
        let newest = service.list().first.map { Double($0.createdAt) / 1000 } ?? 0
        due = Mutex(max(clock.now(), newest) + Double(everyMinutes) * 60)
    }

    /// When the next scheduled backup is due (epoch seconds).
    var nextDue: Double { due.withLock { $0 } }

    func run() {
        logger.notice("backups scheduled", ["directory": service.directory.path, "every_min": String(Int(everySeconds / 60)),
                                            "next_at": iso8601UTC(milliseconds: epochMilliseconds(nextDue))])
        while !signal.wait(seconds: min(max(nextDue - clock.now(), 0.05), Self.pollSeconds)) {
            tick(now: clock.now())
        }
    }

    func requestStop() { signal.requestStop() }

    /// Makes the scheduled backup if it is due at `now`; returns whether one was attempted.
    @discardableResult
    func tick(now: Double) -> Bool {
        // An on-demand backup since the last look moves the schedule on.
        let newest = service.list().first.map { Double($0.createdAt) / 1000 } ?? 0
        let next = due.withLock { d in d = max(d, newest + everySeconds); return d }
        guard now >= next else { return false }
        do {
            let report = try service.make(.scheduled, actor: "system")
            logger.notice("backup written", ["path": report.path, "bytes": String(report.bytes), "audit_rows": String(report.auditRows),
                                             "pruned": String(report.pruned.count)])
        } catch DomainError.conflict {
            // An on-demand backup is being written: it counts, and moves the schedule when named.
            logger.notice("scheduled backup skipped: an on-demand backup is being written")
            return true
        } catch DomainError.busy(_, let seconds) {
            // Long reads are all taken: try again soon rather than a whole interval later.
            due.withLock { $0 = now + Double(seconds) }
            logger.warning("backup postponed: long reads are busy", ["retry_in_s": String(seconds)])
            return true
        } catch {
            logger.error("backup failed", ["error": "\(error)", "directory": service.directory.path])
        }
        due.withLock { $0 = now + everySeconds }
        return true
    }
}
