import Foundation
import Synchronization
import HyponaTrackCore

/// Prometheus text-format metrics (exposition format 0.0.4): requests by route and status,
/// request durations by route (histogram), evaluations by level. Labels are route templates,
/// never study IDs (no high-cardinality labels).
public final class Metrics: Sendable {
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    struct Histogram {
        var counts = [Int](repeating: 0, count: Metrics.buckets.count)
        var sum = 0.0
        var count = 0
    }

    struct State {
        var requests: [String: Int] = [:]          // "method route status" → count
        var durations: [String: Histogram] = [:]   // route → histogram
        var evaluations: [Level: Int] = [:]
        var rulesReloads: [String: Int] = [:]      // outcome → count
    }

    private let state = Mutex(State())
    public let startedAt = Date()

    public init() {}

    public func requestCompleted(method: String, route: String, status: Int, seconds: Double) {
        state.withLock { s in
            s.requests["\(method) \(route) \(status)", default: 0] += 1
            var h = s.durations[route] ?? Histogram()
            for (i, bound) in Metrics.buckets.enumerated() where seconds <= bound { h.counts[i] += 1 }
            h.sum += seconds
            h.count += 1
            s.durations[route] = h
        }
    }

    public func evaluationRecorded(level: Level) { state.withLock { $0.evaluations[level, default: 0] += 1 } }
    public func rulesReloaded(ok: Bool) { state.withLock { $0.rulesReloads[ok ? "ok" : "refused", default: 0] += 1 } }

    /// The exposition text; `gauges` adds point-in-time values (name → (help, value)).
    public func render(gauges: [(name: String, help: String, value: Double)] = [],
                       counters: [(name: String, help: String, value: Double)] = []) -> String {
        let s = state.withLock { $0 }
        var out = ""
        out += "# HELP hyponatrack_http_requests_total HTTP requests by method, route template and status.\n"
        out += "# TYPE hyponatrack_http_requests_total counter\n"
        for key in s.requests.keys.sorted() {
            let parts = key.split(separator: " ", maxSplits: 2).map(String.init)
            out += "hyponatrack_http_requests_total{method=\"\(parts[0])\",route=\"\(escape(parts[1]))\",status=\"\(parts[2])\"} \(s.requests[key]!)\n"
        }
        out += "# HELP hyponatrack_http_request_duration_seconds Time from request to response, by route template.\n"
        out += "# TYPE hyponatrack_http_request_duration_seconds histogram\n"
        for route in s.durations.keys.sorted() {
            let h = s.durations[route]!
            let r = escape(route)
            for (i, bound) in Metrics.buckets.enumerated() {
                out += "hyponatrack_http_request_duration_seconds_bucket{route=\"\(r)\",le=\"\(bound)\"} \(h.counts[i])\n"
            }
            out += "hyponatrack_http_request_duration_seconds_bucket{route=\"\(r)\",le=\"+Inf\"} \(h.count)\n"
            out += "hyponatrack_http_request_duration_seconds_sum{route=\"\(r)\"} \(h.sum)\n"
            out += "hyponatrack_http_request_duration_seconds_count{route=\"\(r)\"} \(h.count)\n"
        }
        out += "# HELP hyponatrack_evaluations_total Stored evaluations by level.\n"
        out += "# TYPE hyponatrack_evaluations_total counter\n"
        for level in [Level.green, .yellow, .red] {
            out += "hyponatrack_evaluations_total{level=\"\(level.rawValue)\"} \(s.evaluations[level] ?? 0)\n"
        }
        out += "# HELP hyponatrack_rules_reloads_total Rule reloads (SIGHUP) by outcome.\n"
        out += "# TYPE hyponatrack_rules_reloads_total counter\n"
        for outcome in ["ok", "refused"] {
            out += "hyponatrack_rules_reloads_total{outcome=\"\(outcome)\"} \(s.rulesReloads[outcome] ?? 0)\n"
        }
        out += "# HELP hyponatrack_uptime_seconds Seconds since the daemon started.\n"
        out += "# TYPE hyponatrack_uptime_seconds gauge\n"
        out += "hyponatrack_uptime_seconds \(Date().timeIntervalSince(startedAt))\n"
        for g in gauges {
            out += "# HELP \(g.name) \(g.help)\n# TYPE \(g.name) gauge\n\(g.name) \(g.value)\n"
        }
        for c in counters {
            out += "# HELP \(c.name) \(c.help)\n# TYPE \(c.name) counter\n\(c.name) \(c.value)\n"
        }
        return out
    }

    private func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
