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
        table.withLock { t in Self.set(&t, key, Entry(failures: failures, lastFailureAt: ms, lockedUntil: lockedUntil), nowMs: ms) }
    }

    /// What `reserve` decided for one attempt.
    enum Reservation: Equatable {
        /// The attempt may be checked, and is counted as a failure already; `startedLockUntil`
        /// is the lock's end (ms) when this attempt reached the limit and started the lock.
        case admitted(startedLockUntil: Int64?)
        /// Locked for this many more milliseconds: the attempt must not be checked.
        case locked(remainingMs: Int64)
    }

    /// Reads the state and counts the attempt as a failure in one step, before a slow check
    /// (a password hash) decides it: parallel attempts each see the ones before them, so of any
    /// burst at most `policy.maxFailures` are admitted, and only the one reaching the limit
    /// starts the lock. A success undoes the count with `save(key, failures: 0, …)`. An expired
    /// lock counts as a fresh start, as in `ActivationAttempts.state`.
    func reserve(_ key: String, policy: ActivationPolicy, nowMs: Int64) -> Reservation {
        table.withLock { t in
            var previous = 0
            if let entry = t[key] {
                if let until = entry.lockedUntil {
                    if until > nowMs { return .locked(remainingMs: until - nowMs) }
                } else {
                    previous = entry.failures
                }
            }
            let failures = previous + 1
            let lockedUntil: Int64? = failures >= policy.maxFailures ? nowMs + Int64((policy.lockout * 1000).rounded()) : nil
            Self.set(&t, key, Entry(failures: failures, lastFailureAt: nowMs, lockedUntil: lockedUntil), nowMs: nowMs)
            return .admitted(startedLockUntil: lockedUntil)
        }
    }

    private static func set(_ t: inout BoundedTable<Entry>, _ key: String, _ entry: Entry, nowMs ms: Int64) {
        t.set(key, entry, isIdle: { ($0.lockedUntil ?? 0) <= ms && $0.lastFailureAt < ms - Self.idleAfterMs },
              rank: { Double(max($0.lockedUntil ?? 0, $0.lastFailureAt)) })
    }
}
