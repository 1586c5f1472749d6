import Foundation
import Synchronization

/// The daemon's own view from `GET /metrics` (Prometheus text): the request-duration histogram
/// of one route (time inside the daemon, from request to response) and status counts.
struct DaemonMetrics {
    /// Cumulative bucket counts by upper bound (`+Inf` as infinity).
    var buckets: [(le: Double, count: Int)] = []
    var sum = 0.0
    var count = 0
    /// `status → count` of `hyponatrack_http_requests_total` for the route, all methods.
    var statuses: [String: Int] = [:]

    static let putRoute = "/v1/me/days/{date}"

    /// Fetches and parses the metrics of `route`.
    static func fetch(port: UInt16, route: String = putRoute) throws -> DaemonMetrics {
        let reply = try HTTPConnection(port: port).request("GET", "/metrics")
        guard reply.status == 200 else { throw BenchError("GET /metrics: status \(reply.status)") }
        return parse(String(decoding: reply.body, as: UTF8.self), route: route)
    }

    static func parse(_ text: String, route: String) -> DaemonMetrics {
        var m = DaemonMetrics()
        let routeLabel = "route=\"\(route)\""
        for line in text.split(separator: "\n") where line.contains(routeLabel) {
            guard let value = line.split(separator: " ").last.flatMap({ Double($0) }) else { continue }
            if line.hasPrefix("hyponatrack_http_request_duration_seconds_bucket") {
                guard let le = label("le", in: line) else { continue }
                m.buckets.append((le == "+Inf" ? .infinity : Double(le) ?? .nan, Int(value)))
            } else if line.hasPrefix("hyponatrack_http_request_duration_seconds_sum") {
                m.sum = value
            } else if line.hasPrefix("hyponatrack_http_request_duration_seconds_count") {
                m.count = Int(value)
            } else if line.hasPrefix("hyponatrack_http_requests_total"), let status = label("status", in: line) {
                m.statuses[status, default: 0] += Int(value)
            }
        }
        return m
    }

    /// `hyponatrack_database_pending_writes` (write jobs queued for the next commit), or nil.
    static func pendingWrites(port: UInt16) -> Double? {
        guard let reply = try? HTTPConnection(port: port).request("GET", "/metrics"), reply.status == 200 else { return nil }
        for line in String(decoding: reply.body, as: UTF8.self).split(separator: "\n")
        where line.hasPrefix("hyponatrack_database_pending_writes ") {
            return line.split(separator: " ").last.flatMap { Double($0) }
        }
        return nil
    }

    private static func label(_ name: String, in line: Substring) -> String? {
        guard let range = line.range(of: "\(name)=\"") else { return nil }
        let rest = line[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// The difference `self − earlier` (the requests between two scrapes).
    func since(_ earlier: DaemonMetrics) -> DaemonMetrics {
        var d = DaemonMetrics()
        d.sum = sum - earlier.sum
        d.count = count - earlier.count
        d.buckets = buckets.map { b in (b.le, b.count - (earlier.buckets.first { $0.le == b.le }?.count ?? 0)) }
        for (status, n) in statuses { d.statuses[status] = n - (earlier.statuses[status] ?? 0) }
        return d
    }

    /// Mean duration in milliseconds (0 without requests).
    var meanMs: Double { count > 0 ? sum / Double(count) * 1000 : 0 }

    /// The histogram as "≤1 ms 12%, ≤2.5 ms 80%, …" (share of requests per bucket, non-empty ones).
    var bucketShares: String {
        guard count > 0 else { return "no requests" }
        var previous = 0
        var parts: [String] = []
        for b in buckets {
            let n = b.count - previous
            previous = b.count
            guard n > 0 else { continue }
            let bound = b.le.isInfinite ? "> \(ms(buckets.dropLast().last?.le ?? 0))" : "≤ \(ms(b.le))"
            parts.append("\(bound) \(String(format: "%.1f", 100 * Double(n) / Double(count)))%")
        }
        return parts.joined(separator: ", ")
    }

    private func ms(_ seconds: Double) -> String {
        let v = seconds * 1000
        return v == v.rounded() ? "\(Int(v)) ms" : String(format: "%g ms", v)
    }
}

/// Polls `hyponatrack_database_pending_writes` from a background thread (10 Hz by default): how
/// many write jobs wait for the single writer while the load runs.
final class PendingWritesSampler: Sendable {
    private let state = Mutex<(running: Bool, samples: [Double])>((true, []))
    private let finished = DispatchSemaphore(value: 0)

    init(port: UInt16, interval: Double = 0.1) {
        let thread = Thread { [self] in
            while state.withLock({ $0.running }) {
                if let v = DaemonMetrics.pendingWrites(port: port) { state.withLock { $0.samples.append(v) } }
                Monotonic.sleep(interval)
            }
            finished.signal()
        }
        thread.start()
    }

    /// Stops polling and returns the samples.
    func stop() -> [Double] {
        state.withLock { $0.running = false }
        finished.wait()
        return state.withLock { $0.samples }
    }
}
