import Foundation
import Synchronization
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The gate in front of slow work (the console's password checks, the long reads): so many
/// run, so many wait, the next is refused at once instead of holding a handler thread.
@Suite struct AdmissionGateTests {
    @Test func oneBeyondTheRunningAndWaitingChecksIsRefusedAtOnce() throws {
        let admittedChecks = DispatchSemaphore(value: 0)
        let gate = AdmissionGate(concurrent: 1, waiting: 1, onAdmitted: { admittedChecks.signal() })
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
        #expect(gate.refused == 1, "the refusal is counted")
        release.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(ran.load(ordering: .relaxed) == 2, "the waiting check got its turn")
        #expect(gate.inUse == 0)
        #expect(gate.run { 7 } == 7, "with the gate free a check runs")
    }

    @Test func aCheckThatThrowsGivesItsPlaceBack() {
        struct Failure: Error {}
        let gate = AdmissionGate(concurrent: 1, waiting: 0)
        #expect(throws: Failure.self) { _ = try gate.run { throw Failure() } }
        #expect(gate.inUse == 0)
        #expect(gate.run { true } == true)
    }

    /// Long reads never hold more than a quarter of the handler threads, waiting included, and
    /// run no more at once than there are long-read connections.
    @Test func longReadsTakeAtMostAQuarterOfTheHandlerThreads() {
        let places = { (threads: Int) -> (Int, Int) in
            let gate = AdmissionGate.longReads(handlerThreads: threads, connections: 2)
            return (gate.concurrent, gate.waiting)
        }
        #expect(places(16) == (2, 2))
        #expect(places(8) == (2, 0))
        #expect(places(4) == (1, 0))
        #expect(places(1) == (1, 0), "one long read may still run on a single thread")
        #expect(places(256) == (2, 2), "never more than two turns of waiting")
    }
}
