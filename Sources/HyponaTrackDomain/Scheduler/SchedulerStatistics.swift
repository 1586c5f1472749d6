import Synchronization

/// The scheduler's own figures for `/metrics`: ticks by outcome and the last tick's duration
/// (its age comes from the stored last tick, `SchedulerRepository.lastTick`).
final class SchedulerStatistics: Sendable {
    struct Snapshot {
        var ok = 0
        var failed = 0
        var lastDurationSeconds: Double?
    }

    private let state = Mutex(Snapshot())

    var snapshot: Snapshot { state.withLock { $0 } }

    func ticked(ok: Bool, seconds: Double) {
        state.withLock { s in
            if ok { s.ok += 1 } else { s.failed += 1 }
            s.lastDurationSeconds = seconds
        }
    }
}
