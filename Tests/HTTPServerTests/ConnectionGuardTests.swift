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
}
