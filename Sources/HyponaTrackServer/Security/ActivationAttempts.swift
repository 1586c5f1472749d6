import SQLite

/// The per-study-ID failure counter and lock behind activation lockout
/// (`activation_attempts`). Keys are `patients.study_id_key` values, or the same normalization
/// of IDs that are not enrolled: unknown IDs are counted alike, so a refusal reveals nothing.
enum ActivationAttempts {
    /// The state before an attempt.
    enum State: Equatable {
        /// Attempts are allowed; `failures` consecutive failures so far.
        case open(failures: Int)
        /// Locked for this many more milliseconds.
        case locked(remainingMs: Int64)
    }

    /// The current state for `key`. An expired lock counts as a fresh start (0 failures).
    static func state(_ db: Connection, key: String, nowMs: Int64) throws -> State {
        guard let attempts = try ActivationRepository.attempts(db, key: key) else { return .open(failures: 0) }
        if let lockedUntil = attempts.lockedUntil {
            return lockedUntil > nowMs ? .locked(remainingMs: lockedUntil - nowMs) : .open(failures: 0)
        }
        return .open(failures: attempts.failures)
    }

    /// Records one failure after `previousFailures`; returns the lock end (ms) if this failure
    /// reached the limit. Written in the caller's transaction, which must commit it even though
    /// the request is refused.
    static func recordFailure(_ db: Connection, key: String, previousFailures: Int,
                              policy: ActivationPolicy, nowMs: Int64) throws -> Int64? {
        let failures = previousFailures + 1
        let lockedUntil: Int64? = failures >= policy.maxFailures
            ? nowMs + Int64((policy.lockout * 1000).rounded()) : nil
        try ActivationRepository.saveAttempts(db, key: key, failures: failures, lastFailureAt: nowMs, lockedUntil: lockedUntil)
        return lockedUntil
    }

    /// Forgets the failures of `key` (after a success, or when staff reissue a code).
    static func reset(_ db: Connection, key: String) throws {
        try ActivationRepository.deleteAttempts(db, key: key)
    }

    /// Deletes counters that no longer matter: no lock in force and no failure within
    /// `olderThan` seconds. Keeps the table small when random study IDs are tried.
    static func prune(_ db: Connection, nowMs: Int64, olderThanMs: Int64) throws -> Int {
        try ActivationRepository.pruneAttempts(db, now: nowMs, lastFailureBefore: nowMs - olderThanMs)
    }

    /// Whole seconds until `remainingMs` have passed, at least 1 (for `Retry-After`).
    static func retryAfterSeconds(_ remainingMs: Int64) -> Int {
        max(1, Int((remainingMs + 999) / 1000))
    }
}
