import Foundation
import Synchronization
import Testing
@testable import HyponaTrackServer

/// The gate in front of the console's slow password checks: so many run, so many wait, the
/// next is refused at once instead of holding a handler thread.
@Suite struct PasswordCheckGateTests {
    @Test func oneBeyondTheRunningAndWaitingChecksIsRefusedAtOnce() throws {
        let admittedChecks = DispatchSemaphore(value: 0)
        let gate = PasswordCheckGate(concurrent: 1, waiting: 1, onAdmitted: { admittedChecks.signal() })
        let running = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let ran = Atomic<Int>(0)
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
            _ = gate.run { ran.add(1, ordering: .relaxed); running.signal(); release.wait() }
        }
        #expect(running.wait(timeout: .now() + 10) == .success, "the first check runs")
        #expect(admittedChecks.wait(timeout: .now() + 10) == .success)
        DispatchQueue.global().async(group: done) {
            _ = gate.run { ran.add(1, ordering: .relaxed) }
        }
        #expect(admittedChecks.wait(timeout: .now() + 10) == .success, "the second check is admitted to wait")
        #expect(gate.inUse == 2 && ran.load(ordering: .relaxed) == 1, "one check runs, one waits")
        // Were the capacity check broken, this third check would wait for the first, which ends
        // only below: on a thread of its own with 10 s to answer, the test fails instead of hanging.
        let third = Mutex<Int?>(-1)                 // -1: still inside run
        let thirdReturned = DispatchSemaphore(value: 0)
        DispatchQueue.global().async(group: done) {
            let result = gate.run { 1 }
            third.withLock { $0 = result }
            thirdReturned.signal()
        }
        let answered = thirdReturned.wait(timeout: .now() + 10) == .success
        #expect(answered, "a third check waits for its turn instead of being refused at once")
        #expect(!answered || third.withLock { $0 } == nil, "a third check is refused while two are in")
        release.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(ran.load(ordering: .relaxed) == 2, "the waiting check got its turn")
        #expect(gate.inUse == 0)
        #expect(gate.run { 7 } == 7, "with the gate free a check runs")
    }

    @Test func aCheckThatThrowsGivesItsPlaceBack() {
        struct Failure: Error {}
        let gate = PasswordCheckGate(concurrent: 1, waiting: 0)
        #expect(throws: Failure.self) { _ = try gate.run { throw Failure() } }
        #expect(gate.inUse == 0)
        #expect(gate.run { true } == true)
    }
}
