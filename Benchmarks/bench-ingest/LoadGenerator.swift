import Foundation
import Synchronization

/// What one client counted.
struct ClientResult: Sendable {
    /// Latencies (ns) of the 200 responses that completed inside the measured window.
    var latencies: [UInt64] = []
    /// Non-200 outcomes inside the measured window, by kind ("HTTP 503", "timeout", …).
    var errorsInWindow: [String: Int] = [:]
    /// Every 200 of the run, warm-up and the last in-flight request included: each one is a
    /// symptom entry the database must hold.
    var acknowledged = 0
    /// Every non-200 outcome of the run, by kind.
    var errors: [String: Int] = [:]
    /// Requests sent that got no response at all (the daemon may or may not have committed them).
    var unanswered = 0
    /// Times the client had to open a new connection after the first.
    var reconnects = 0
    /// The first error response body seen, for the report.
    var firstErrorBody: String?
}

/// A load run's aggregate.
struct RunResult {
    let clients: Int
    let seconds: Double
    /// Sorted latencies (ns) of the acknowledged requests in the measured window.
    let latencies: [UInt64]
    let errorsInWindow: [String: Int]
    let acknowledged: Int
    let errors: [String: Int]
    let unanswered: Int
    let reconnects: Int
    let firstErrorBody: String?

    /// Acknowledged (200) submissions per second in the measured window.
    var throughput: Double { Double(latencies.count) / seconds }

    /// Mean latency of the acknowledged requests in the window, in milliseconds.
    var meanLatencyMs: Double {
        latencies.isEmpty ? 0 : Double(latencies.reduce(0, +)) / Double(latencies.count) / 1e6
    }

    /// The latency at quantile `q` (nearest rank), in milliseconds; 0 without data.
    func latencyMs(_ q: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let rank = min(latencies.count - 1, max(0, Int((q * Double(latencies.count)).rounded(.up)) - 1))
        return Double(latencies[rank]) / 1e6
    }
}

/// One thread per client, each with its own keep-alive connection, sending PUTs back to back:
/// first a warm-up (answers counted for durability only), then the measured window; after the
/// window each client finishes its in-flight request and stops.
///
/// With a `rate`, the clients are paced instead: together they send `rate` requests a second,
/// each on its own fixed schedule (client i of n starts i/n of a period late), so the daemon works
/// below saturation and its CPU per request is not shaped by how the two cores are shared with
/// this process at full load.
enum LoadGenerator {
    /// Runs the clients; `midway` is called on this thread halfway through the measured window.
    static func run<Source: RequestSource>(port: UInt16, cursors: [Source], warmup: Double, duration: Double,
                    rate: Double? = nil, midway: () -> Void = {}) -> RunResult {
        let period = rate.map { Double(cursors.count) / $0 }
        let schedule = Mutex<(from: UInt64, to: UInt64)>((0, 0))
        let results = Mutex<[ClientResult]>([])
        let connected = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for (index, cursor) in cursors.enumerated() {
            done.enter()
            let pace = period.map { (period: $0, offset: $0 * Double(index) / Double(cursors.count)) }
            let thread = Thread {
                var connection = try? HTTPConnection(port: port)
                connected.signal()
                go.wait()
                let window = schedule.withLock { $0 }
                let result = runClient(cursor, port: port, connection: &connection, window: window, pace: pace)
                results.withLock { $0.append(result) }
                done.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        for _ in cursors { connected.wait() }
        let start = Monotonic.now()
        let from = Monotonic.adding(warmup, to: start)
        schedule.withLock { $0 = (from, Monotonic.adding(duration, to: from)) }
        for _ in cursors { go.signal() }
        let half = Monotonic.adding(duration / 2, to: from)
        Monotonic.sleep(Monotonic.seconds(from: Monotonic.now(), to: half))
        midway()
        done.wait()
        let all = results.withLock { $0 }
        func merged(_ key: KeyPath<ClientResult, [String: Int]>) -> [String: Int] {
            all.reduce(into: [:]) { into, r in r[keyPath: key].forEach { into[$0.key, default: 0] += $0.value } }
        }
        return RunResult(clients: cursors.count, seconds: duration,
                         latencies: all.flatMap(\.latencies).sorted(),
                         errorsInWindow: merged(\.errorsInWindow),
                         acknowledged: all.reduce(0) { $0 + $1.acknowledged }, errors: merged(\.errors),
                         unanswered: all.reduce(0) { $0 + $1.unanswered },
                         reconnects: all.reduce(0) { $0 + $1.reconnects },
                         firstErrorBody: all.lazy.compactMap(\.firstErrorBody).first)
    }

    /// One client's loop until the end of the window.
    private static func runClient<Source: RequestSource>(_ cursor: Source, port: UInt16, connection: inout HTTPConnection?,
                                  window: (from: UInt64, to: UInt64), pace: (period: Double, offset: Double)?) -> ClientResult {
        var cursor = cursor
        var result = ClientResult()
        result.latencies.reserveCapacity(16_384)
        var sent = Monotonic.now()
        // The next send on this client's schedule; a client that fell behind sends at once.
        var due = pace.map { Monotonic.adding($0.offset, to: sent) }
        while sent < window.to {
            if let next = due, let pace {
                let wait = Monotonic.seconds(from: Monotonic.now(), to: next)
                if wait > 0 { Monotonic.sleep(wait) }
                due = Monotonic.adding(pace.period, to: next)
                if Monotonic.now() >= window.to { break }
            }
            func record(_ kind: String) {
                result.errors[kind, default: 0] += 1
                if Monotonic.now() >= window.from { result.errorsInWindow[kind, default: 0] += 1 }
            }
            if connection == nil {
                do {
                    connection = try HTTPConnection(port: port)
                    result.reconnects += 1
                } catch {
                    record("\(error)")
                    Monotonic.sleep(0.01)
                    sent = Monotonic.now()
                    continue
                }
            }
            let request = cursor.next()
            sent = Monotonic.now()
            do {
                let reply = try connection!.roundTrip(request)
                let received = Monotonic.now()
                if reply.status == 200 {
                    result.acknowledged += 1
                    if received >= window.from && received <= window.to { result.latencies.append(received - sent) }
                } else {
                    record("HTTP \(reply.status)")
                    if result.firstErrorBody == nil {
                        result.firstErrorBody = "HTTP \(reply.status): " + String(decoding: reply.body.prefix(300), as: UTF8.self)
                    }
                }
                if !reply.keepAlive { connection = nil }
            } catch {
                result.unanswered += 1
                record("\(error)")
                connection = nil
            }
            sent = Monotonic.now()
        }
        return result
    }
}
