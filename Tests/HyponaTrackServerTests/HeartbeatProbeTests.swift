import Dispatch
import Foundation
import Synchronization
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// `/healthz`'s durable write happens at most once per interval, and a probe never waits for
/// one under way (``HeartbeatProbe``).
@Suite struct HeartbeatProbeTests {
    final class Beats: Sendable {
        let count = Atomic<Int>(0)
        let result = Atomic<Bool>(true)
        func beat() -> Bool {
            count.add(1, ordering: .relaxed)
            return result.load(ordering: .relaxed)
        }
    }

    @Test func probesWithinTheIntervalShareOneCommit() {
        let beats = Beats()
        let probe = HeartbeatProbe(interval: .seconds(60)) { beats.beat() }
        #expect(beats.count.load(ordering: .relaxed) == 1)  // the one at start
        for _ in 0..<1000 { #expect(probe.writable()) }
        #expect(beats.count.load(ordering: .relaxed) == 1)
    }

    @Test func aProbeAfterTheIntervalCommitsAgainAndReportsAFailure() {
        let beats = Beats()
        let probe = HeartbeatProbe(interval: .seconds(1)) { beats.beat() }
        beats.result.store(false, ordering: .relaxed)
        #expect(probe.writable(now: .now + .seconds(2)) == false)
        #expect(beats.count.load(ordering: .relaxed) == 2)
        // The failure is what probes see until the next commit.
        #expect(probe.writable() == false)
        #expect(beats.count.load(ordering: .relaxed) == 2)
        beats.result.store(true, ordering: .relaxed)
        #expect(probe.writable(now: .now + .seconds(2)))
    }

    @Test func aProbeDuringACommitDoesNotWaitAndAStalledCommitIsNotWritable() {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let starts = Atomic<Int>(0)
        let probe = HeartbeatProbe(interval: .seconds(1), stallLimit: .seconds(5)) {
            if starts.add(1, ordering: .relaxed).newValue > 1 {
                entered.signal()
                release.wait()  // a hung disk
            }
            return true
        }
        let later = ContinuousClock.now + .seconds(2)
        let done = DispatchSemaphore(value: 0)
        Thread { _ = probe.writable(now: later); done.signal() }.start()
        entered.wait()
        // Answered at once from the last commit while the new one hangs…
        #expect(probe.writable(now: later + .seconds(1)))
        // …and "not writable" once it has hung past the stall limit.
        #expect(probe.writable(now: later + .seconds(6)) == false)
        #expect(starts.load(ordering: .relaxed) == 2)
        release.signal()
        done.wait()
    }
}
