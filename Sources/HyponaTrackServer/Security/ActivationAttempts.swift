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
        guard let row = try db.queryOne(
            "SELECT failures, locked_until FROM activation_attempts WHERE study_id_key = ?", [key])
        else { return .open(failures: 0) }
        if let lockedUntil = try row.optionalInt64("locked_until") {
            return lockedUntil > nowMs ? .locked(remainingMs: lockedUntil - nowMs) : .open(failures: 0)
        }
        return .open(failures: try row.int("failures"))
    }

    /// Records one failure after `previousFailures`; returns the lock end (ms) if this failure
    /// reached the limit. Written in the caller's transaction, which must commit it even though
    /// the request is refused.
    static func recordFailure(_ db: Connection, key: String, previousFailures: Int,
                              policy: ActivationPolicy, nowMs: Int64) throws -> Int64? {
        let failures = previousFailures + 1
        let lockedUntil: Int64? = failures >= policy.maxFailures
            ? nowMs + Int64((policy.lockout * 1000).rounded()) : nil
        try db.execute("""
            INSERT INTO activation_attempts(study_id_key, failures, last_failure_at, locked_until)
            VALUES (?, ?, ?, ?)
            ON CONFLICT(study_id_key) DO UPDATE SET
                failures = excluded.failures,
                last_failure_at = excluded.last_failure_at,
                locked_until = excluded.locked_until
            """, [key, failures, nowMs, lockedUntil])
        return lockedUntil
    }

    /// Forgets the failures of `key` (after a success, or when staff reissue a code).
    static func reset(_ db: Connection, key: String) throws {
        try db.execute("DELETE FROM activation_attempts WHERE study_id_key = ?", [key])
    }

    /// Deletes counters that no longer matter: no lock in force and no failure within
    /// `olderThan` seconds. Keeps the table small when random study IDs are tried.
    static func prune(_ db: Connection, nowMs: Int64, olderThanMs: Int64) throws -> Int {
        try db.execute("""
            DELETE FROM activation_attempts
            WHERE (locked_until IS NULL OR locked_until <= ?) AND last_failure_at < ?
            """, [nowMs, nowMs - olderThanMs])
    }

    /// Whole seconds until `remainingMs` have passed, at least 1 (for `Retry-After`).
    static func retryAfterSeconds(_ remainingMs: Int64) -> Int {
        max(1, Int((remainingMs + 999) / 1000))
    }
}
