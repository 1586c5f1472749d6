import Foundation
import Synchronization
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The REDCap rate cap's window written to the real database, read back by the pacer of a new
/// process (a restart after `kill -9`): a monotonic clock and a wall clock, both settable.
@Suite struct RequestPacerTests {
    final class Monotonic: Sendable {
        let t = Mutex(5_000.0)
        func advance(_ s: Double) { t.withLock { $0 += s } }
        var now: @Sendable () -> Double { { self.t.withLock { $0 } } }
    }

    static let quiet = Logger(minimum: .error, capture: { _ in })

    /// A daemon's pacer over `store`: its own monotonic clock (a new process, a new boot-relative
    /// origin), the shared wall clock.
    static func pacer(_ store: DaemonDatabase, wall: SimulationClock, perMinute: Int = 3) throws -> (RequestPacer, Monotonic, Int) {
        let mono = Monotonic()
        let pacer = RequestPacer(perMinute: perMinute, journal: SyncRequestJournal(database: store.database, clock: wall, logger: quiet),
                                 now: mono.now, sleep: { mono.advance($0); wall.set(wall.now() + $0) })
        return (pacer, mono, try pacer.resume())
    }

    @Test func aRestartedPacerCountsTheRequestsOfTheLastMinute() throws {
        let store = try DaemonDatabase()
        let wall = SimulationClock(TestDatabase.now)
        let (first, mono1, _) = try Self.pacer(store, wall: wall)
        for _ in 1...3 {
            let stamp = first.acquire()
            wall.set(wall.now() + 0.5); mono1.advance(0.5)
            first.finished(stamp)
        }
        #expect(first.recent == 3)
        // kill -9, restart 5 s later: the window is still full.
        wall.set(wall.now() + 5)
        let (second, mono2, earlier) = try Self.pacer(store, wall: wall)
        let start = mono2.now()
        #expect(earlier == 3 && second.recent == 3)
        var polls = 0
        #expect(!second.waitForSlot(unless: { polls += 1; return polls > 20 }), "the window is full after the restart")
        // It opens 60 s after the first request was answered (6 s before the restart), not at once.
        second.finished(second.acquire())
        let waited = mono2.now() - start
        #expect(waited >= 54 - 1e-6 && waited < 55, "waited \(waited) s")
    }

    @Test func aRequestTheDaemonDiedWaitingForCountsAsAnsweredAtTheRestart() throws {
        let store = try DaemonDatabase()
        let wall = SimulationClock(TestDatabase.now)
        let (first, _, _) = try Self.pacer(store, wall: wall, perMinute: 1)
        _ = first.acquire()                                         // killed before the answer
        wall.set(wall.now() + 50)
        let (second, mono, earlier) = try Self.pacer(store, wall: wall, perMinute: 1)
        #expect(earlier == 1)
        let start = mono.now()
        second.finished(second.acquire())
        #expect(mono.now() - start >= 60 - 1e-9, "a full minute after the restart: \(mono.now() - start) s")
        // A third start half a minute later counts the second start's request, not that one again.
        wall.set(wall.now() + 30)
        let (third, _, _) = try Self.pacer(store, wall: wall, perMinute: 1)
        #expect(third.recent == 1, "only the request sent after the second start")
    }

    @Test func aWallClockSteppedBackHoldsTheWindowForAMinuteAtMost() throws {
        let store = try DaemonDatabase()
        let wall = SimulationClock(TestDatabase.now)
        let (first, _, _) = try Self.pacer(store, wall: wall, perMinute: 2)
        first.finished(first.acquire())
        first.finished(first.acquire())
        wall.set(wall.now() - 3600)                                 // stepped back an hour
        let (second, mono, earlier) = try Self.pacer(store, wall: wall, perMinute: 2)
        #expect(earlier == 2 && second.recent == 2, "answers \"in the future\" count as answered now")
        mono.advance(60)
        #expect(second.recent == 0, "…for one minute, not for the hour")
        wall.set(wall.now() + 61)
        let (third, _, _) = try Self.pacer(store, wall: wall, perMinute: 2)
        #expect(third.recent == 0)
    }

    @Test func aRequestTheDaemonDiedWaitingForLongAgoDoesNotCountAtTheNextStart() throws {
        let store = try DaemonDatabase()
        let wall = SimulationClock(TestDatabase.now)
        let (first, _, _) = try Self.pacer(store, wall: wall, perMinute: 1)
        _ = first.acquire()                                         // killed before the answer
        wall.set(wall.now() + 10 * 60)                              // down for ten minutes
        let (second, _, earlier) = try Self.pacer(store, wall: wall, perMinute: 1)
        #expect(earlier == 0 && second.recent == 0, "it ended within 75 s of its start, long before this start")
    }
}
