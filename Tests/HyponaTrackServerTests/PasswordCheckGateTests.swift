import Foundation
import Synchronization
import Testing
@testable import HyponaTrackServer

/// The gate in front of the console's slow password checks: so many run, so many wait, the
/// next is refused at once instead of holding a handler thread.
@Suite struct PasswordCheckGateTests {
    /// Polls (no fixed sleep) until `condition` holds; false after 10 s.
    func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            if Date() > deadline { return false }
            usleep(1_000)
        }
        return true
    }

    @Test func oneBeyondTheRunningAndWaitingChecksIsRefusedAtOnce() throws {
        let gate = PasswordCheckGate(concurrent: 1, waiting: 1)
        let release = DispatchSemaphore(value: 0)
        let ran = Atomic<Int>(0)
        let done = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: done) {
                _ = gate.run { ran.add(1, ordering: .relaxed); release.wait() }
            }
        }
        #expect(eventually { gate.inUse == 2 && ran.load(ordering: .relaxed) == 1 }, "one check runs, one waits")
        #expect(gate.run { 1 } == nil, "a third check is refused while two are in")
        release.signal()
        #expect(eventually { ran.load(ordering: .relaxed) == 2 }, "the waiting check gets its turn")
        release.signal()
        done.wait()
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
