import SQLite

/// Where a study ID's activation failure counter lives: for an enrolled study ID the one row of
/// `activation_attempts` per patient, updated in place (`StoredActivationAttempts`); for any
/// other ID a bounded table in memory (`UnenrolledActivationAttempts`), so guesses at random IDs
/// lock exactly like an enrolled one (a refusal reveals nothing) but never write to disk.
protocol ActivationAttemptStore {
    func attempts(_ key: String) throws -> ActivationRepository.Attempts?
    func save(_ key: String, failures: Int, lastFailureAt ms: Int64, lockedUntil: Int64?) throws
}

/// The enrolled patients' counters, in the caller's write transaction.
struct StoredActivationAttempts: ActivationAttemptStore {
    let db: Connection

    func attempts(_ key: String) throws -> ActivationRepository.Attempts? { try ActivationRepository.attempts(db, key: key) }

    func save(_ key: String, failures: Int, lastFailureAt ms: Int64, lockedUntil: Int64?) throws {
        try ActivationRepository.saveAttempts(db, key: key, failures: failures, lastFailureAt: ms, lockedUntil: lockedUntil)
    }
}

/// The per-study-ID failure counter and lock behind activation lockout. Keys are
/// `patients.study_id_key` values, or the same normalization of IDs that are not enrolled.
enum ActivationAttempts {
    /// The state before an attempt.
    enum State: Equatable {
        /// Attempts are allowed; `failures` consecutive failures so far.
        case open(failures: Int)
        /// Locked for this many more milliseconds.
        case locked(remainingMs: Int64)
    }

    /// The current state for `key`. An expired lock counts as a fresh start (0 failures).
    static func state(_ store: any ActivationAttemptStore, key: String, nowMs: Int64) throws -> State {
        guard let attempts = try store.attempts(key) else { return .open(failures: 0) }
        if let lockedUntil = attempts.lockedUntil {
            return lockedUntil > nowMs ? .locked(remainingMs: lockedUntil - nowMs) : .open(failures: 0)
        }
        return .open(failures: attempts.failures)
    }

    /// Records one failure after `previousFailures`; returns the lock end (ms) if this failure
    /// reached the limit. A stored counter is written in the caller's transaction, which must
    /// commit it even though the request is refused.
    static func recordFailure(_ store: any ActivationAttemptStore, key: String, previousFailures: Int,
                              policy: ActivationPolicy, nowMs: Int64) throws -> Int64? {
        let failures = previousFailures + 1
        let lockedUntil: Int64? = failures >= policy.maxFailures
            ? nowMs + Int64((policy.lockout * 1000).rounded()) : nil
        try store.save(key, failures: failures, lastFailureAt: nowMs, lockedUntil: lockedUntil)
        return lockedUntil
    }

    /// Forgets the failures of an enrolled `key` (after a success, or when staff reissue a
    /// code), in place: the patient's row stays for the next failure to update.
    static func reset(_ db: Connection, key: String) throws {
        try ActivationRepository.clearAttempts(db, key: key)
    }

    /// Deletes stored counters that no longer matter: no lock in force and no failure within
    /// `olderThan` seconds.
    static func prune(_ db: Connection, nowMs: Int64, olderThanMs: Int64) throws -> Int {
        try ActivationRepository.pruneAttempts(db, now: nowMs, lastFailureBefore: nowMs - olderThanMs)
    }

    /// Whole seconds until `remainingMs` have passed, at least 1 (for `Retry-After`).
    static func retryAfterSeconds(_ remainingMs: Int64) -> Int {
        max(1, Int((remainingMs + 999) / 1000))
    }
}
