import Synchronization

/// Activation failure counters of study IDs that are not enrolled, in memory: they lock after
/// `activation.maxFailures` like an enrolled ID (so a refusal never tells which IDs exist), but
/// a flood of guesses at random IDs writes nothing to disk.
///
/// Bounded: at most `maxKeys` IDs (`BoundedTable`). When full, counters with no lock in force
/// and no failure for a day are forgotten first (as `Activation.pruneAttempts` does on disk),
/// then those with the oldest failure; IDs under a lock are kept longest. Forgotten on restart.
final class UnenrolledActivationAttempts: ActivationAttemptStore, Sendable {
    static let defaultMaxKeys = 16_384
    /// A counter with no lock and no failure for this long is worth nothing.
    static let idleAfterMs: Int64 = 24 * 3600 * 1000

    struct Entry {
        var failures: Int
        var lastFailureAt: Int64
        var lockedUntil: Int64?
    }

    private let table: Mutex<BoundedTable<Entry>>

    init(maxKeys: Int = UnenrolledActivationAttempts.defaultMaxKeys) {
        table = Mutex(BoundedTable(capacity: maxKeys))
    }

    var count: Int { table.withLock { $0.count } }

    func attempts(_ key: String) -> ActivationRepository.Attempts? {
        table.withLock { $0[key] }.map { ActivationRepository.Attempts(failures: $0.failures, lockedUntil: $0.lockedUntil) }
    }

    func save(_ key: String, failures: Int, lastFailureAt ms: Int64, lockedUntil: Int64?) {
        table.withLock { t in
            t.set(key, Entry(failures: failures, lastFailureAt: ms, lockedUntil: lockedUntil),
                  isIdle: { ($0.lockedUntil ?? 0) <= ms && $0.lastFailureAt < ms - Self.idleAfterMs },
                  rank: { Double(max($0.lockedUntil ?? 0, $0.lastFailureAt)) })
        }
    }
}
