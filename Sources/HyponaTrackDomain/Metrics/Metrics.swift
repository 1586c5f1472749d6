import Foundation
import Synchronization
import HyponaTrackCore
import HyponaTrackKit

/// Prometheus text-format metrics (exposition format 0.0.4): requests by route and status,
/// request durations by route (histogram), evaluations by level, rule reloads by outcome, the
/// process start time and the build. Labels are route templates and small fixed sets, never
/// study IDs (no high-cardinality labels); a label value is never baked into a metric name.
public final class Metrics: Sendable {
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    struct Histogram {
        var counts = [Int](repeating: 0, count: Metrics.buckets.count)
        var sum = 0.0
        var count = 0
    }

    struct RequestKey: Hashable, Comparable {
        var method: String
        var route: String
        var status: Int
        static func < (a: RequestKey, b: RequestKey) -> Bool {
            (a.method, a.route, a.status) < (b.method, b.route, b.status)
        }
    }

    struct State {
        var requests: [RequestKey: Int] = [:]
        var durations: [String: Histogram] = [:]   // route → histogram
        var evaluations: [Level?: Int] = [:]
        var rulesReloads: [String: Int] = [:]      // outcome → count
    }

    private let state = Mutex(State())
    public let startedAt = Date()

    public init() {}

    public func requestCompleted(method: String, route: String, status: Int, seconds: Double) {
        state.withLock { s in
            s.requests[RequestKey(method: method, route: route, status: status), default: 0] += 1
            var h = s.durations[route] ?? Histogram()
            for (i, bound) in Metrics.buckets.enumerated() where seconds <= bound { h.counts[i] += 1 }
            h.sum += seconds
            h.count += 1
            s.durations[route] = h
        }
    }

    /// `level` nil: a day that is not evaluated (label `none`).
    public func evaluationRecorded(level: Level?) { state.withLock { $0.evaluations[level, default: 0] += 1 } }
    public func rulesReloaded(ok: Bool) { state.withLock { $0.rulesReloads[ok ? "ok" : "refused", default: 0] += 1 } }

    /// The exposition text: the daemon's own families, then `extra` (the database and sync
    /// figures). Each family's HELP and TYPE appear once, before its samples.
    public func render(_ extra: [MetricFamily] = []) -> String {
        let families = self.families() + extra
        assert(Set(families.map(\.name)).count == families.count, "a metric family is rendered twice")
        return families.map(\.text).joined()
    }

    func families() -> [MetricFamily] {
        let s = state.withLock { $0 }
        var requests = MetricFamily("hyponatrack_http_requests_total", .counter,
                                    "HTTP requests by method, route template and status.")
        for key in s.requests.keys.sorted() {
            requests.add(Double(s.requests[key]!), labels: [("method", key.method), ("route", key.route), ("status", String(key.status))])
        }
        var durations = MetricFamily("hyponatrack_http_request_duration_seconds", .histogram,
                                     "Time from request to response, by route template.")
        for route in s.durations.keys.sorted() {
            let h = s.durations[route]!
            for (i, bound) in Metrics.buckets.enumerated() {
                durations.add(Double(h.counts[i]), suffix: "_bucket", labels: [("route", route), ("le", "\(bound)")])
            }
            durations.add(Double(h.count), suffix: "_bucket", labels: [("route", route), ("le", "+Inf")])
            durations.add(h.sum, suffix: "_sum", labels: [("route", route)])
            durations.add(Double(h.count), suffix: "_count", labels: [("route", route)])
        }
        var evaluations = MetricFamily("hyponatrack_evaluations_total", .counter, "Stored evaluations by level.")
        for level in [Level.green, .yellow, .red, nil] {
            evaluations.add(Double(s.evaluations[level] ?? 0), labels: [("level", level?.rawValue ?? "none")])
        }
        var reloads = MetricFamily("hyponatrack_rules_reloads_total", .counter, "Rule reloads (SIGHUP) by outcome.")
        for outcome in ["ok", "refused"] {
            reloads.add(Double(s.rulesReloads[outcome] ?? 0), labels: [("outcome", outcome)])
        }
        var build = MetricFamily("hyponatrack_build_info", .gauge, "Always 1; the version of the running daemon as a label.")
        build.add(1, labels: [("version", HyponaTrackVersion.string)])
        return [
            requests, durations, evaluations, reloads,
            .gauge("hyponatrack_uptime_seconds", "Seconds since the daemon started.", Date().timeIntervalSince(startedAt)),
            .gauge("process_start_time_seconds", "Start time of the process since the Unix epoch in seconds.",
                   startedAt.timeIntervalSince1970),
            build,
        ]
    }
}

/// One metric family of the Prometheus text format 0.0.4: a name, its `# HELP` and `# TYPE`
/// lines, then its samples together. "Only one TYPE line may exist for a given metric name.
/// The TYPE line for a metric name must appear before the first sample is reported for that
/// metric name." (prometheus.io, "Exposition formats").
public struct MetricFamily: Sendable {
    public enum Kind: String, Sendable { case counter, gauge, histogram }

    public struct Sample: Sendable {
        /// Appended to the family's name: empty, or `_bucket`, `_sum`, `_count` of a histogram.
        public var suffix: String
        public var labels: [Label]
        public var value: Double
    }

    public struct Label: Sendable {
        public var name: String
        public var value: String
    }

    public let name: String
    public let kind: Kind
    public let help: String
    public private(set) var samples: [Sample] = []

    public init(_ name: String, _ kind: Kind, _ help: String) {
        self.name = name
        self.kind = kind
        self.help = help
    }

    /// A family of one unlabelled gauge sample.
    public static func gauge(_ name: String, _ help: String, _ value: Double) -> MetricFamily {
        single(name, .gauge, help, value)
    }

    /// A family of one unlabelled counter sample.
    public static func counter(_ name: String, _ help: String, _ value: Double) -> MetricFamily {
        single(name, .counter, help, value)
    }

    private static func single(_ name: String, _ kind: Kind, _ help: String, _ value: Double) -> MetricFamily {
        var family = MetricFamily(name, kind, help)
        family.add(value)
        return family
    }

    public mutating func add(_ value: Double, suffix: String = "", labels: [(String, String)] = []) {
        samples.append(Sample(suffix: suffix, labels: labels.map { Label(name: $0.0, value: $0.1) }, value: value))
    }

    /// The family in the text format, each line ending in a newline.
    public var text: String {
        var out = "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
        for sample in samples {
            out += name + sample.suffix
            if !sample.labels.isEmpty {
                out += "{" + sample.labels.map { "\($0.name)=\"\(Self.escapeLabel($0.value))\"" }.joined(separator: ",") + "}"
            }
            out += " \(Self.format(sample.value))\n"
        }
        return out
    }

    /// Integral values without a fraction (`3`, not `3.0`); infinities and NaN as the format spells them.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// "label_value can be any sequence of UTF-8 characters, but the backslash (\), double-quote
    /// ("), and line feed (\n) characters have to be escaped as \\, \", and \n, respectively."
    static func escapeLabel(_ s: String) -> String {
        escapeHelp(s).replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// HELP text escapes the backslash and the line feed only.
    static func escapeHelp(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}
