#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The limits libmicrohttpd does not enforce itself (docs/product.md, "Limits under hostile
/// traffic" and "Hostile-traffic details"):
///
/// - **Deadlines, not idle timeouts.** A connection's request headers must be complete within
///   `headerTimeout` of its accept (for the first request) or of the end of the previous
///   response (keep-alive); a body within `bodyTimeout` of its headers. A client that trickles
///   one header line every few seconds is never idle long enough for MHD's own timeout, so a
///   sweeper closes connections past their deadline. While a request is with its handler there
///   is no deadline: waiting for us is not the client's fault.
/// - **Per-IP caps** at accept, with exempt addresses (trusted proxies, through which every
///   connection comes).
/// - **Room under a flood.** When the open connections reach `evictAt`, one is closed to make
///   room, so a new client is not refused because trickling sockets hold every slot: the
///   connection that has waited longest for its request headers (once it has waited
///   `grace`), else the slowest body — one whose bytes since its headers average under
///   `minBodyBytesPerSecond` after `grace` (a slow POST that sends a byte now and then) —, else
///   the oldest header wait however short. The sweeper makes the same room when the
///   connections reached `evictAt` without a newcomer to trigger it (libmicrohttpd stops
///   accepting at its limit, so a newcomer would wait in the backlog). A request with its
///   handler is never closed for this, nor a body arriving at a decent rate.
///
/// Closing means `shutdown(2)` on the descriptor: MHD then sees the end of the stream and
/// closes the connection itself. It happens under the table's lock, and MHD tells us about a
/// closed connection (removing it from the table under the same lock) before it closes the
/// descriptor, so a shut-down descriptor always still belongs to its connection.
final class ConnectionGuard: Sendable {
    struct Limits: Sendable {
        var headerTimeout: Duration
        var bodyTimeout: Duration
        var perIP: Int  // 0: unlimited
        var exempt: Set<String>
        var evictAt: Int
        /// Below this average rate a body may be closed to make room (never otherwise).
        var minBodyBytesPerSecond = 1024
        /// How long a connection may wait for its headers, or send its body at any rate,
        /// before it is preferred for eviction.
        var grace: Duration = .seconds(1)
    }

    enum Phase { case headers, body, handler }

    private struct Entry {
        let fd: Int32
        let ip: String
        var phase: Phase
        var deadline: ContinuousClock.Instant?
        /// When the current wait for headers began (accept or end of the previous response).
        var waitingSince: ContinuousClock.Instant
        /// When the current request's headers were complete, and its body bytes since.
        var bodySince: ContinuousClock.Instant
        var bodyBytes = 0
    }

    private struct Table {
        var entries: [UInt: Entry] = [:]
        /// Connections shut down whose close MHD has not reported yet: they still count
        /// against MHD's limit, but need no further eviction.
        var shutDown: Set<UInt> = []
        var perIP: [String: Int] = [:]
        var stopped = false
        var counts = Counts()
        var nextRecount = ContinuousClock.now + .seconds(10)
        /// Connections in the order they began waiting for request headers (oldest first), for
        /// eviction in O(1); entries that no longer wait (or wait since later) are skipped.
        var waiting: [(key: UInt, since: ContinuousClock.Instant)] = []
        var waitingHead = 0

        /// Shuts the connection's descriptor down (once: its deadline is cleared, and MHD
        /// reports the close shortly).
        mutating func cutOff(_ key: UInt, fd: Int32) {
            _ = shutdown(fd, Int32(SHUT_RDWR))
            entries[key]?.deadline = nil
            shutDown.insert(key)
        }

        /// Open connections not yet shut down.
        var live: Int { entries.count - shutDown.count }

        mutating func startWaiting(_ key: UInt, since: ContinuousClock.Instant) {
            if waitingHead > 1024, waitingHead * 2 > waiting.count {
                waiting.removeFirst(waitingHead)
                waitingHead = 0
            }
            waiting.append((key, since))
        }
    }

    /// What the guard did, for `/metrics`.
    struct Counts: Sendable, Equatable {
        var open = 0
        var refusedPerIP = 0
        var closedHeaderDeadline = 0
        var closedBodyDeadline = 0
        var evicted = 0
        var evictedSlowBody = 0
    }

    let limits: Limits
    private let table = Mutex(Table())
    private let sweeperMonitor = Monitor()
    nonisolated(unsafe) private var sweeperStopped = false  // guarded by `sweeperMonitor`
    nonisolated(unsafe) private var sweeper: ServerThread?  // written once in `start`

    init(limits: Limits) { self.limits = limits }

    /// Starts the deadline sweeper.
    func start() {
        let interval = min(limits.headerTimeout, limits.bodyTimeout, .seconds(1)) / 4
        sweeper = ServerThread(name: "http-deadlines") { [self] in
            while sweeperMonitor.locked({ () -> Bool in
                if !sweeperStopped { sweeperMonitor.wait(until: Monitor.deadline(after: interval)) }
                return !sweeperStopped
            }) {
                sweep(now: .now)
            }
        }
    }

    /// Stops the sweeper; from then on nothing is closed by the guard.
    func stop() {
        sweeperMonitor.locked { sweeperStopped = true; sweeperMonitor.broadcast() }
        sweeper?.join()
        table.withLock { $0.stopped = true }
    }

    var snapshot: Counts {
        table.withLock { t in
            var c = t.counts
            c.open = t.entries.count
            return c
        }
    }

    // MARK: - Called from MHD's callbacks

    /// Accept policy: whether a client at `ip` may open one more connection. An admitted
    /// connection is counted here, at once, so two polling threads accepting from the same
    /// address at the same moment cannot both see room for one. (Should libmicrohttpd fail to
    /// set up an admitted connection, its count would stay; the sweeper therefore recounts the
    /// addresses from the open connections now and then.)
    func admits(ip: String) -> Bool {
        guard isCapped(ip) else { return true }
        return table.withLock { t in
            let ok = (t.perIP[ip] ?? 0) < limits.perIP
            if ok { t.perIP[ip, default: 0] += 1 } else { t.counts.refusedPerIP += 1 }
            return ok
        }
    }

    private func isCapped(_ ip: String) -> Bool { limits.perIP > 0 && !limits.exempt.contains(ip) }

    func opened(_ key: UInt, fd: Int32, ip: String, now: ContinuousClock.Instant = .now) {
        table.withLock { t in
            t.entries[key] = Entry(fd: fd, ip: ip, phase: .headers, deadline: now + limits.headerTimeout, waitingSince: now,
                                   bodySince: now)
            t.startWaiting(key, since: now)
            if t.live >= limits.evictAt { makeRoom(&t, count: 1, now: now, newcomer: key) }
        }
    }

    func closed(_ key: UInt) {
        table.withLock { t in
            t.shutDown.remove(key)
            guard let entry = t.entries.removeValue(forKey: key), isCapped(entry.ip) else { return }
            let left = (t.perIP[entry.ip] ?? 1) - 1
            t.perIP[entry.ip] = left > 0 ? left : nil
        }
    }

    /// Headers complete: the body, if any, must follow within `bodyTimeout`.
    func headersReceived(_ key: UInt, now: ContinuousClock.Instant = .now) {
        update(key) { $0.phase = .body; $0.deadline = now + limits.bodyTimeout; $0.bodySince = now; $0.bodyBytes = 0 }
    }

    /// Body bytes arrived (for the rate below which a body may be closed to make room).
    func bodyReceived(_ key: UInt, bytes: Int) {
        update(key) { $0.bodyBytes += bytes }
    }

    /// A large upload (``UploadSpool``) gets its own, longer body deadline.
    func extendBodyDeadline(_ key: UInt, by timeout: Duration, now: ContinuousClock.Instant = .now) {
        update(key) { $0.deadline = now + timeout }
    }

    /// The request is with its handler: no deadline until it has been answered.
    func dispatched(_ key: UInt) {
        update(key) { $0.phase = .handler; $0.deadline = nil }
    }

    /// The response was sent: a kept-alive connection waits for its next request's headers.
    func answered(_ key: UInt, now: ContinuousClock.Instant = .now) {
        table.withLock { t in
            guard var entry = t.entries[key] else { return }
            entry.phase = .headers
            entry.deadline = now + limits.headerTimeout
            entry.waitingSince = now
            t.entries[key] = entry
            t.startWaiting(key, since: now)
        }
    }

    // MARK: - Sweeping

    /// Closes every connection past its deadline, then makes room if the connections reached
    /// `evictAt` (at MHD's limit no newcomer is accepted whose arrival would).
    func sweep(now: ContinuousClock.Instant) {
        table.withLock { t in
            guard !t.stopped else { return }
            if limits.perIP > 0, now >= t.nextRecount {
                // Drops counts of admitted connections that never opened (see `admits`).
                var counted: [String: Int] = [:]
                for entry in t.entries.values where isCapped(entry.ip) { counted[entry.ip, default: 0] += 1 }
                t.perIP = counted
                t.nextRecount = now + .seconds(10)
            }
            for (key, entry) in t.entries {
                guard let deadline = entry.deadline, deadline <= now else { continue }
                t.cutOff(key, fd: entry.fd)
                if entry.phase == .headers { t.counts.closedHeaderDeadline += 1 } else { t.counts.closedBodyDeadline += 1 }
            }
            if t.live >= limits.evictAt { makeRoom(&t, count: t.live - limits.evictAt + 1, now: now, newcomer: nil) }
        }
    }

    private func update(_ key: UInt, _ change: (inout Entry) -> Void) {
        table.withLock { t in
            if var entry = t.entries[key] { change(&entry); t.entries[key] = entry }
        }
    }

    /// Shuts down up to `count` connections, in the order the type's documentation gives: header
    /// waits older than `grace`, then bodies slower than `minBodyBytesPerSecond` (slowest
    /// first), then — for a newcomer only — the oldest header wait. Never a request with its
    /// handler, never the newcomer itself.
    private func makeRoom(_ t: inout Table, count: Int, now: ContinuousClock.Instant, newcomer: UInt?) {
        var left = count
        while left > 0, let waiter = Self.oldestWaiting(&t, except: newcomer), now - waiter.entry.waitingSince >= limits.grace {
            t.cutOff(waiter.key, fd: waiter.entry.fd)
            t.counts.evicted += 1
            left -= 1
        }
        guard left > 0 else { return }
        for (key, fd) in slowBodies(t, now: now).prefix(left) {
            t.cutOff(key, fd: fd)
            t.counts.evictedSlowBody += 1
            left -= 1
        }
        guard left > 0, newcomer != nil, let waiter = Self.oldestWaiting(&t, except: newcomer) else { return }
        t.cutOff(waiter.key, fd: waiter.entry.fd)
        t.counts.evicted += 1
    }

    /// Bodies past `grace` that average under `minBodyBytesPerSecond` since their headers,
    /// slowest first (equal rates: the longest-running first). A scan of the table, which
    /// holds at most the connection limit; it runs only near that limit.
    private func slowBodies(_ t: Table, now: ContinuousClock.Instant) -> [(key: UInt, fd: Int32)] {
        var slow: [(key: UInt, fd: Int32, rate: Double, since: ContinuousClock.Instant)] = []
        for (key, entry) in t.entries where entry.phase == .body && entry.deadline != nil {
            let elapsed = now - entry.bodySince
            guard elapsed >= limits.grace else { continue }
            let rate = Double(entry.bodyBytes) / Self.seconds(elapsed)
            if rate < Double(limits.minBodyBytesPerSecond) { slow.append((key, entry.fd, rate, entry.bodySince)) }
        }
        slow.sort { ($0.rate, $0.since) < ($1.rate, $1.since) }
        return slow.map { ($0.key, $0.fd) }
    }

    /// The connection that has waited longest for its request headers and is not shut down
    /// yet (nil if none but `newest`). Entries that no longer wait are dropped from the queue.
    private static func oldestWaiting(_ t: inout Table, except newest: UInt?) -> (key: UInt, entry: Entry)? {
        while t.waitingHead < t.waiting.count {
            let (key, since) = t.waiting[t.waitingHead]
            guard let entry = t.entries[key], entry.phase == .headers, entry.deadline != nil, entry.waitingSince == since else {
                t.waitingHead += 1
                continue  // closed, busy, already shut down, or waiting again since later
            }
            return key == newest ? nil : (key, entry)  // the newcomer is the last in the queue
        }
        return nil
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
