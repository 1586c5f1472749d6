import Synchronization

/// Push figures for `/metrics`: deliveries by platform and outcome since start, and the
/// deliveries still to send as the worker last counted them.
public final class PushMetrics: Sendable {
    struct Values {
        var outcomes: [String: Int] = [:]
        var pending = 0
    }
    let values = Mutex(Values())

    func counted(_ platform: PushPlatform, _ state: PushDeliveryState, _ n: Int = 1) {
        values.withLock { $0.outcomes["\(platform.rawValue) \(state.rawValue)", default: 0] += n }
    }
    func pending(_ n: Int) { values.withLock { $0.pending = n } }

    public var families: [MetricFamily] {
        let v = values.withLock { $0 }
        var deliveries = MetricFamily("hyponatrack_push_deliveries_total", .counter,
                                      "Push delivery attempts and expiries since start, by platform and outcome (the delivery states).")
        for platform in PushPlatform.allCases {
            for state in PushDeliveryState.allCases where state != .pending {
                deliveries.add(Double(v.outcomes["\(platform.rawValue) \(state.rawValue)"] ?? 0),
                               labels: [("platform", platform.rawValue), ("outcome", state.rawValue)])
            }
        }
        return [deliveries, .gauge("hyponatrack_push_pending", "Push deliveries still to send (pending or to retry).", Double(v.pending))]
    }
}
