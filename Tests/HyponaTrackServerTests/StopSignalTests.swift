import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The stop signal every background service waits on. A long wait ending early can only have
/// been ended by the wake or stop under test: no test here waits for time to pass, except the
/// one that is about a timeout (50 ms).
@Suite struct StopSignalTests {
    /// Runs `wait` on a service thread and returns what it answered, waiting at most 10 s.
    static func onAnotherThread(_ wait: @escaping @Sendable () -> StopSignal.Wakeup,
                                whileWaiting act: () -> Void) -> StopSignal.Wakeup? {
        let answer = WaitableState<StopSignal.Wakeup?>(nil)
        let waiter = ServiceThread.start(OneShot { answer.change { $0 = wait() } })
        act()
        #expect(waiter.waitUntilFinished(by: .after(seconds: 10)), "the wait did not end")
        return answer.read { $0 }
    }

    @Test func wakeInterruptsTheWait() {
        let signal = StopSignal()
        let answer = Self.onAnotherThread({ signal.waitForWakeup(seconds: 600) }) { signal.wake() }
        #expect(answer == .woken)
        #expect(!signal.isStopRequested)
    }

    @Test func aWakeWhileBusyIsKeptForTheNextWaitAndConsumedByIt() {
        let signal = StopSignal()
        signal.wake()
        #expect(signal.waitForWakeup(seconds: 600) == .woken)
        #expect(signal.waitForWakeup(seconds: 0.05) == .timedOut, "one wake ends one wait")
    }

    @Test func stopEndsTheWaitAndEveryLaterOne() {
        let signal = StopSignal()
        let answer = Self.onAnotherThread({ signal.wait(seconds: 600) ? .stopped : .timedOut }) { signal.requestStop() }
        #expect(answer == .stopped)
        #expect(signal.isStopRequested)
        #expect(signal.wait(seconds: 600))
        #expect(signal.pause(seconds: 600))
    }

    @Test func stopWinsOverAPendingWake() {
        let signal = StopSignal()
        signal.wake()
        signal.requestStop()
        #expect(signal.waitForWakeup(seconds: 600) == .stopped)
    }

    @Test func waitWithoutWakeOrStopTimesOutAsNotStopped() {
        let signal = StopSignal()
        #expect(!signal.wait(seconds: 0.05))
    }

    @Test func pauseLetsWakesWaitForTheNextWait() {
        let signal = StopSignal()
        signal.wake()
        #expect(!signal.pause(seconds: 0.05), "a pause ends by time, not by a wake")
        #expect(signal.waitForWakeup(seconds: 600) == .woken)
    }

    @Test func deadlinesCountOnTheMonotonicClock() {
        let soon = MonotonicDeadline.after(seconds: 0)
        #expect(soon.hasPassed)
        #expect(!MonotonicDeadline.after(seconds: 600).hasPassed)
        #expect(MonotonicDeadline.after(seconds: .infinity) == .distantFuture)
    }
}

/// A service that runs `body` once and returns; stopping it asks nothing of it.
struct OneShot: BackgroundService {
    let body: @Sendable () -> Void
    var name: String { "one-shot" }
    var stopDeadline: Double { 10 }
    func run() { body() }
    func requestStop() {}
}
