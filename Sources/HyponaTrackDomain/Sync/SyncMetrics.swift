import Synchronization

/// Sync figures for `/metrics`: the outbox as the worker last read it (at most once a second)
/// and totals since start. Failures are one family labelled by kind, not one name per kind.
public final class SyncMetrics: Sendable {
    /// The kinds `failure(_:)` counts (docs/redcap.md, "Errors"), in the order they are rendered.
    public static let failureKinds = ["transient", "rejected", "halt"]

    public struct Values {
        var pending = 0
        var dead = 0
        var oldestPendingSeconds = 0.0
        var halted = false
        var sentRows = 0
        var sendRequests = 0
        var failures: [String: Int] = [:]
        var deadLettered = 0
    }
    public let values = Mutex(Values())

    func update(status: SyncOutboxStatus, now ms: Int64) {
        values.withLock { v in
            v.pending = status.pending
            v.dead = status.dead
            v.halted = status.halted
            v.oldestPendingSeconds = status.oldestPendingAt.map { Double(ms - $0) / 1000 } ?? 0
        }
    }
    public func sent(rows: Int) { values.withLock { $0.sentRows += rows; $0.sendRequests += 1 } }
    /// An import request that failed as `kind` (one of ``failureKinds``).
    public func failure(_ kind: String) { values.withLock { $0.failures[kind, default: 0] += 1; $0.sendRequests += 1 } }
    public func deadLettered() { values.withLock { $0.deadLettered += 1 } }

    public var families: [MetricFamily] {
        let v = values.withLock { $0 }
        var failures = MetricFamily("hyponatrack_sync_failures_total", .counter,
                                    "Import requests failed since start, by kind (transient, rejected, halt).")
        for kind in Self.failureKinds { failures.add(Double(v.failures[kind] ?? 0), labels: [("kind", kind)]) }
        return [
            .gauge("hyponatrack_sync_pending_rows", "REDCap rows waiting in the outbox.", Double(v.pending)),
            .gauge("hyponatrack_sync_dead_letters", "REDCap rows rejected and kept for a person to fix.", Double(v.dead)),
            .gauge("hyponatrack_sync_oldest_pending_seconds", "Age of the oldest pending REDCap row.", v.oldestPendingSeconds),
            .gauge("hyponatrack_sync_halted", "1 while the sync is halted.", v.halted ? 1 : 0),
            .counter("hyponatrack_sync_sent_rows_total", "Rows REDCap confirmed since start.", Double(v.sentRows)),
            .counter("hyponatrack_sync_requests_total", "Import requests sent since start.", Double(v.sendRequests)),
            failures,
            .counter("hyponatrack_sync_dead_lettered_rows_total", "Rows dead-lettered since start.", Double(v.deadLettered)),
        ]
    }
}
