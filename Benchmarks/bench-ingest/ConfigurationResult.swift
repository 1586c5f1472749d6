/// The repeated runs of one client count, with the daemon's own view of them.
struct ConfigurationResult {
    let clients: Int
    let runs: [RunResult]
    /// The daemon's PUT histogram over these runs (warm-up included).
    let handler: DaemonMetrics

    var throughput: Spread { Spread(runs.map(\.throughput)) }
    var p50: Spread { Spread(runs.map { $0.latencyMs(0.5) }) }
    var p99: Spread { Spread(runs.map { $0.latencyMs(0.99) }) }
    /// Mean client-side latency, averaged over the runs.
    var meanLatencyMs: Double { runs.map(\.meanLatencyMs).reduce(0, +) / Double(runs.count) }
    var acknowledged: Int { runs.reduce(0) { $0 + $1.acknowledged } }
    var unanswered: Int { runs.reduce(0) { $0 + $1.unanswered } }
    /// Every non-200 outcome of every run, by kind.
    var errors: [String: Int] {
        runs.reduce(into: [:]) { all, r in r.errors.forEach { all[$0.key, default: 0] += $0.value } }
    }

    /// "N clients" with a right-aligned N.
    var label: String {
        let n = String(clients)
        return String(repeating: " ", count: max(0, 2 - n.count)) + n + (clients == 1 ? " client " : " clients")
    }

    /// One run's line.
    static func line(_ r: RunResult, _ index: Int, of count: Int) -> String {
        "  run \(index)/\(count): \(fmt(r.throughput)) /s, p50 \(fmt(r.latencyMs(0.5), 1)) ms, "
            + "p99 \(fmt(r.latencyMs(0.99), 1)) ms, max \(fmt(r.latencyMs(1), 1)) ms; "
            + "errors in window: \(errorList(r.errorsInWindow))"
            + (r.errors == r.errorsInWindow ? "" : "; whole run incl. warm-up: \(errorList(r.errors))")
            + (r.reconnects > 0 ? "; reconnects \(r.reconnects)" : "")
    }

    /// The configuration's closing line.
    var conclusion: String {
        "  → throughput \(throughput.text()) acknowledged/s; p50 median \(fmt(p50.median, 1)) ms, "
            + "p99 median \(fmt(p99.median, 1)) ms; mean \(fmt(meanLatencyMs, 2)) ms at the clients, "
            + "\(fmt(handler.meanMs, 2)) ms inside the daemon's handler"
    }

    /// The configuration's line in the summary table.
    var summary: String {
        "  \(label): \(throughput.text()) /s, p50 \(fmt(p50.median, 1)) ms, p99 \(fmt(p99.median, 1)) ms, "
            + "errors \(errorList(errors))"
    }
}
