import Synchronization

/// How the backups stand, for `/healthz` and `/metrics`: the last good backup (at start, the
/// newest in the directory with a manifest), the last failure, the counts and the last duration.
public final class BackupStatus: Sendable {
    public struct Snapshot: Sendable, Equatable {
        /// ms since the epoch.
        public var lastGoodAt: Int64?
        public var lastFailureAt: Int64?
        public var lastFailure: String?
        public var succeeded = 0
        public var failed = 0
        public var lastDurationSeconds: Double?
    }

    private let state: Mutex<Snapshot>

    init(lastGoodAt: Int64?) {
        state = Mutex(Snapshot(lastGoodAt: lastGoodAt))
    }

    public var snapshot: Snapshot { state.withLock { $0 } }

    func succeeded(at ms: Int64, seconds: Double) {
        state.withLock { s in
            s.lastGoodAt = max(s.lastGoodAt ?? ms, ms)
            s.succeeded += 1
            s.lastDurationSeconds = seconds
        }
    }

    func failed(at ms: Int64, reason: String, seconds: Double) {
        state.withLock { s in
            s.lastFailureAt = ms
            s.lastFailure = reason
            s.failed += 1
            s.lastDurationSeconds = seconds
        }
    }
}
