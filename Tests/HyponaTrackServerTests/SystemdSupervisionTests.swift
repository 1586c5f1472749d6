import Foundation
import Synchronization
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// What the daemon tells systemd, captured instead of sent; the liveness behind `WATCHDOG=1`.
@Suite struct SystemdSupervisionTests {
    /// The datagrams a supervision sent, and a probe whose answer the test sets.
    final class Rig: Sendable {
        let sent = Mutex<[String]>([])
        let liveness = Mutex(Liveness(failure: nil, patients: 2, sync: .ok))
        let writes = Mutex<[Bool]>([])
        let log = CapturedLog()

        func supervision(watchdog: Duration?) -> SystemdSupervision {
            SystemdSupervision(notify: { state in self.sent.withLock { $0.append(state) } }, watchdogInterval: watchdog,
                               serving: "serving on 127.0.0.1:8750", logger: log.logger) { write in
                self.writes.withLock { $0.append(write) }
                return self.liveness.withLock { $0 }
            }
        }

        /// The datagrams sent since the last call.
        func take() -> [String] { sent.withLock { s in defer { s = [] }; return s } }
    }

    @Test func readyCarriesTheStatusLine() {
        let rig = Rig()
        rig.supervision(watchdog: nil).ready()
        #expect(rig.take() == ["READY=1\nSTATUS=serving on 127.0.0.1:8750, 2 patients, sync ok"])
        #expect(rig.writes.withLock { $0 } == [false], "readiness reads, it does not write")
    }

    @Test func eachPassingCheckPingsTheWatchdogAfterACommitAndAChangedStatusIsSentOnce() {
        let rig = Rig()
        let supervision = rig.supervision(watchdog: .milliseconds(500))
        #expect(supervision.period == 0.5)
        supervision.ready()
        _ = rig.take()
        supervision.check()
        #expect(rig.take() == ["WATCHDOG=1"])
        rig.liveness.withLock { $0.sync = .halted }
        supervision.check()
        #expect(rig.take() == ["WATCHDOG=1\nSTATUS=serving on 127.0.0.1:8750, 2 patients, sync halted"])
        supervision.check()
        #expect(rig.take() == ["WATCHDOG=1"])
        #expect(rig.writes.withLock { $0 } == [false, true, true, true])
    }

    @Test func aFailedCheckWithholdsTheWatchdogSaysWhyAndIsLoggedOnce() {
        let rig = Rig()
        let supervision = rig.supervision(watchdog: .seconds(15))
        supervision.check()
        _ = rig.take()
        rig.liveness.withLock { $0.failure = "service stopped on its own: scheduler" }
        supervision.check()
        supervision.check()
        #expect(rig.take() == ["STATUS=unhealthy: service stopped on its own: scheduler"])
        #expect(rig.log.all.filter { $0.contains("liveness check failed") }.count == 1)
        #expect(rig.log.all.contains { $0.contains("level=error") && $0.contains("reason=\"service stopped on its own: scheduler\"") })
        rig.liveness.withLock { $0.failure = nil }
        supervision.check()
        #expect(rig.take() == ["WATCHDOG=1\nSTATUS=serving on 127.0.0.1:8750, 2 patients, sync ok"])
        #expect(rig.log.all.contains { $0.contains("liveness check passes again") })
    }

    @Test func withoutAWatchdogOnlyTheStatusIsKeptCurrentAndNothingIsWritten() {
        let rig = Rig()
        let supervision = rig.supervision(watchdog: nil)
        #expect(supervision.period == SystemdSupervision.statusInterval)
        supervision.check()
        rig.liveness.withLock { $0.patients = 1; $0.sync = .off }
        supervision.check()
        #expect(rig.take() == ["STATUS=serving on 127.0.0.1:8750, 2 patients, sync ok",
                               "STATUS=serving on 127.0.0.1:8750, 1 patient, sync off"])
        #expect(rig.writes.withLock { $0 } == [false, false])
    }

    @Test func aReloadIsAnnouncedWithTheMonotonicClockAndEndsInReady() throws {
        let rig = Rig()
        let supervision = rig.supervision(watchdog: nil)
        let before = MonotonicDeadline.now.nanoseconds / 1000
        supervision.reloading()
        supervision.reloaded()
        let sent = rig.take()
        #expect(sent.count == 2 && sent.last == "READY=1")
        let lines = try #require(sent.first).split(separator: "\n")
        #expect(lines.first == "RELOADING=1")
        let usec = try #require(lines.last.flatMap { UInt64($0.dropFirst("MONOTONIC_USEC=".count)) })
        #expect(usec >= before && usec <= MonotonicDeadline.now.nanoseconds / 1000)
    }

    @Test func aBrokenSocketIsLoggedOnceNotAtEveryCheck() {
        let log = CapturedLog()
        struct Gone: Error {}
        let supervision = SystemdSupervision(notify: { _ in throw Gone() }, watchdogInterval: .seconds(1), serving: "serving",
                                             logger: log.logger) { _ in Liveness(failure: nil, patients: 0, sync: .off) }
        for _ in 0..<3 { supervision.check() }
        #expect(log.all.filter { $0.contains("cannot notify systemd") }.count == 1)
    }

    @Test func theProbeReadsCommitsAndSeesAHaltedSync() throws {
        let d = try DaemonDatabase()
        let group = ServiceGroup([], logger: CapturedLog().logger)
        let probe = LivenessProbe(database: d.database, services: group, syncEnabled: true, clock: SystemClock())
        #expect(probe.check(write: true) == Liveness(failure: nil, patients: 0, sync: .ok))
        let beat = try d.database.read { try $0.queryOne("SELECT at FROM heartbeat WHERE id = 1")?.int64(0) }
        #expect(beat != nil, "the check committed a heartbeat")
        try d.database.write { try OutboxRepository.halt($0, reason: "403", at: 0) }
        #expect(probe.check(write: false).sync == .halted)
        let off = LivenessProbe(database: d.database, services: group, syncEnabled: false, clock: SystemClock())
        #expect(off.check(write: false).sync == .off)
    }
}
