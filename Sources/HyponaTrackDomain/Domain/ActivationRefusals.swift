import Synchronization

/// Refused activation attempts, counted instead of written one row each (a flood of wrong codes
/// must not fill the disk): totals by outcome for `/metrics`, and per client address since the
/// last flush for the audit trail's summaries (`RefusalSummaries` writes them, at most once a
/// minute per address).
///
/// Memory is bounded: at most `maxAddresses` addresses are told apart between two flushes; the
/// refusals of any further address are counted under the address `*`.
public final class ActivationRefusals: Sendable {
    public enum Outcome: String, CaseIterable, Sendable {
        case wrongCode = "wrong_code", expired, locked, rateLimited = "rate_limited"
    }

    /// The refusals of one address (or of `*`) in one period.
    public struct Summary: Equatable {
        var ip: String
        var count = 0
        var outcomes: [Outcome: Int] = [:]
        /// Addresses folded into a `*` summary (1 for one address).
        var addresses = 1

        mutating func add(_ outcome: Outcome, times: Int = 1) {
            count += times
            outcomes[outcome, default: 0] += times
        }

        mutating func absorb(_ other: Summary) {
            for (outcome, n) in other.outcomes { add(outcome, times: n) }
            addresses += other.addresses
        }
    }

    /// The address under which refusals beyond the limits are summarised together.
    public static let othersAddress = "*"
    public static let defaultMaxAddresses = 16_384
    /// Audit rows per flush: the addresses with the most refusals get one each, the rest share
    /// one `*` row, so even a flood from many addresses adds a bounded number of rows a minute.
    public static let maxRowsPerFlush = 100

    private struct State {
        var totals: [Outcome: Int] = [:]
        var pending: [String: Summary] = [:]
        var others = Summary(ip: ActivationRefusals.othersAddress, addresses: 0)
    }

    public let maxAddresses: Int
    private let state = Mutex(State())

    public init(maxAddresses: Int = ActivationRefusals.defaultMaxAddresses) {
        self.maxAddresses = maxAddresses
    }

    /// Counts one refused attempt from `ip`.
    public func record(ip: String, _ outcome: Outcome) {
        state.withLock { s in
            s.totals[outcome, default: 0] += 1
            if s.pending[ip] == nil, s.pending.count >= maxAddresses {
                s.others.add(outcome)
                return
            }
            s.pending[ip, default: Summary(ip: ip)].add(outcome)
        }
    }

    /// Refusals since the start, by outcome.
    public func total(_ outcome: Outcome) -> Int { state.withLock { $0.totals[outcome] ?? 0 } }

    /// The refusals since the last call, one summary per address (most refusals first), at most
    /// `maxRowsPerFlush` of them (the rest folded into `*`); counting starts afresh.
    public func drain() -> [Summary] {
        let (pending, others) = state.withLock { s -> ([Summary], Summary) in
            defer { s.pending = [:]; s.others = Summary(ip: Self.othersAddress, addresses: 0) }
            return (Array(s.pending.values), s.others)
        }
        var sorted = pending.sorted { ($0.count, $1.ip) > ($1.count, $0.ip) }
        var rest = others
        if sorted.count + (rest.count > 0 ? 1 : 0) > Self.maxRowsPerFlush {
            for summary in sorted[(Self.maxRowsPerFlush - 1)...] { rest.absorb(summary) }
            sorted.removeLast(sorted.count - (Self.maxRowsPerFlush - 1))
        }
        return rest.count > 0 ? sorted + [rest] : sorted
    }

    /// `hyponatrack_activation_refused_total{outcome}`, every outcome listed (0 included).
    public var families: [MetricFamily] {
        var family = MetricFamily("hyponatrack_activation_refused_total", .counter,
                                  "Refused activation attempts by outcome (wrong_code, expired, locked, rate_limited).")
        let totals = state.withLock { $0.totals }
        for outcome in Outcome.allCases { family.add(Double(totals[outcome] ?? 0), labels: [("outcome", outcome.rawValue)]) }
        return [family]
    }
}
