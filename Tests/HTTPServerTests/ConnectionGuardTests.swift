import Testing
@testable import HTTPServer

#if canImport(Glibc)
import Glibc
#endif

/// The connection guard's deadlines on an injected clock: each test moves `now` by hand and
/// sweeps, and a socket pair shows whether the guard shut the connection's end down.
@Suite struct ConnectionGuardTests {
    final class Pair {
        var fds: [Int32] = [-1, -1]
        init() { precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0) }
        deinit { close(fds[0]); close(fds[1]) }
        /// Whether the guard shut our end down (the peer reads end of stream at once).
        var isShutDown: Bool {
            var entry = pollfd(fd: fds[1], events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 0) > 0 else { return false }
            var byte: UInt8 = 0
            return recv(fds[1], &byte, 1, Int32(MSG_DONTWAIT)) == 0
        }
    }

    static func guardian(perIP: Int = 0) -> ConnectionGuard {
        ConnectionGuard(limits: .init(headerTimeout: .seconds(1), bodyTimeout: .seconds(3), perIP: perIP, exempt: [],
                                      evictAt: 1000))
    }

    let t0 = ContinuousClock.now

    @Test func aKeptAliveConnectionGetsAFreshHeaderDeadlineAfterEachResponse() {
        let g = Self.guardian(), pair = Pair()
        g.opened(1, fd: pair.fds[0], ip: "127.0.0.1", now: t0)
        // Three requests 0.6 s apart: 1.8 s on one connection, each within its own deadline.
        for n in 1...3 {
            let at = t0 + .milliseconds(600 * n)
            g.headersReceived(1, now: at)
            g.dispatched(1)
            g.answered(1, now: at)
            g.sweep(now: at + .milliseconds(500))
            #expect(!pair.isShutDown)
        }
        // Idle past the deadline: closed.
        g.sweep(now: t0 + .milliseconds(1800 + 1001))
        #expect(pair.isShutDown)
        #expect(g.snapshot.closedHeaderDeadline == 1)
    }

    @Test func aRequestWithItsHandlerHasNoDeadlineAndABodyHasItsOwn() {
        let g = Self.guardian(), busy = Pair(), slowBody = Pair()
        g.opened(1, fd: busy.fds[0], ip: "127.0.0.1", now: t0)
        g.opened(2, fd: slowBody.fds[0], ip: "127.0.0.1", now: t0)
        g.headersReceived(1, now: t0)
        g.dispatched(1)
        g.headersReceived(2, now: t0)
        g.sweep(now: t0 + .seconds(2))  // past the header deadline, inside the body deadline
        #expect(!busy.isShutDown && !slowBody.isShutDown)
        g.sweep(now: t0 + .seconds(60))
        #expect(!busy.isShutDown)
        #expect(slowBody.isShutDown)
        #expect(g.snapshot.closedBodyDeadline == 1)
    }

    @Test func theCapPerAddressCountsAdmissionsAndFreesASlotOnClose() {
        let g = Self.guardian(perIP: 2), a = Pair(), b = Pair()
        #expect(g.admits(ip: "10.0.0.9"))
        g.opened(1, fd: a.fds[0], ip: "10.0.0.9", now: t0)
        #expect(g.admits(ip: "10.0.0.9"))
        g.opened(2, fd: b.fds[0], ip: "10.0.0.9", now: t0)
        #expect(!g.admits(ip: "10.0.0.9"))
        #expect(g.admits(ip: "10.0.0.10"))
        g.closed(1)
        #expect(g.admits(ip: "10.0.0.9"))
        #expect(g.snapshot.refusedPerIP == 1)
    }

    // MARK: - Room near the limit

    static func nearLimit(evictAt: Int) -> ConnectionGuard {
        ConnectionGuard(limits: .init(headerTimeout: .seconds(10), bodyTimeout: .seconds(30), perIP: 0, exempt: [], evictAt: evictAt))
    }

    @Test func aNewcomerNearTheLimitClosesASlowBodyNeverAFastOneOrARequestWithItsHandler() {
        let g = Self.nearLimit(evictAt: 4), slow = Pair(), fast = Pair(), busy = Pair(), newcomer = Pair()
        g.opened(1, fd: slow.fds[0], ip: "127.0.0.1", now: t0)
        g.headersReceived(1, now: t0)
        g.bodyReceived(1, bytes: 1)
        g.opened(2, fd: fast.fds[0], ip: "127.0.0.1", now: t0)
        g.headersReceived(2, now: t0)
        g.bodyReceived(2, bytes: 10_000)  // 5,000 B/s after two seconds
        g.opened(3, fd: busy.fds[0], ip: "127.0.0.1", now: t0)
        g.headersReceived(3, now: t0)
        g.dispatched(3)
        g.opened(4, fd: newcomer.fds[0], ip: "127.0.0.1", now: t0 + .seconds(2))
        #expect(slow.isShutDown)
        #expect(!fast.isShutDown && !busy.isShutDown && !newcomer.isShutDown)
        #expect(g.snapshot.evictedSlowBody == 1 && g.snapshot.evicted == 0)
    }

    @Test func aHeaderWaitPastTheGraceGoesFirstAFreshOneIsKeptWhileASlowBodyCanGo() {
        let g = Self.nearLimit(evictAt: 3), idle = Pair(), slow = Pair(), first = Pair(), second = Pair()
        g.opened(1, fd: idle.fds[0], ip: "127.0.0.1", now: t0)
        g.opened(2, fd: slow.fds[0], ip: "127.0.0.1", now: t0)
        g.headersReceived(2, now: t0)
        g.bodyReceived(2, bytes: 1)
        g.opened(3, fd: first.fds[0], ip: "127.0.0.1", now: t0 + .seconds(2))
        #expect(idle.isShutDown && !slow.isShutDown)
        // The next newcomer finds only a fresh header wait (the previous newcomer's) and the
        // slow body: the body goes.
        g.opened(4, fd: second.fds[0], ip: "127.0.0.1", now: t0 + .seconds(2) + .milliseconds(1))
        #expect(slow.isShutDown)
        #expect(!first.isShutDown && !second.isShutDown)
        #expect(g.snapshot.evicted == 1 && g.snapshot.evictedSlowBody == 1)
    }

    @Test func atTheLimitTheSweeperClosesTheSlowestBodyOnceItsGraceIsOver() {
        let g = Self.nearLimit(evictAt: 2), slower = Pair(), slow = Pair()
        for (key, pair, bytes) in [(UInt(1), slower, 1), (2, slow, 100)] {
            g.opened(key, fd: pair.fds[0], ip: "127.0.0.1", now: t0)
            g.headersReceived(key, now: t0)
            g.bodyReceived(key, bytes: bytes)
        }
        g.sweep(now: t0 + .milliseconds(500))  // within the grace: nothing closed
        #expect(!slower.isShutDown && !slow.isShutDown)
        g.sweep(now: t0 + .seconds(2))
        #expect(slower.isShutDown && !slow.isShutDown)
        // Shut down but not yet reported closed by MHD: no second eviction for the same room.
        g.sweep(now: t0 + .seconds(3))
        #expect(!slow.isShutDown)
        #expect(g.snapshot.evictedSlowBody == 1)
    }
}
