import SQLite

/// One-time activation codes: issuing them to a patient (staff side) and exchanging one for a
/// patient token (`POST /v1/activate`).
///
/// Every function runs on the caller's connection inside the caller's write transaction and
/// never begins or commits. `activate` writes even when it refuses (an enrolled patient's
/// failure counter and lock, updated in place), so the caller must **commit after a refusal
/// too**: return the refusal from the group-commit job instead of throwing it, then map it to
/// the HTTP status. Audit entries (`activation.success`, `activation.lockout`,
/// `activation.reissue`) are the caller's, with the study ID only, never the code or the token.
public enum Activation {
    /// Issues a new code for a patient, revoking the patient's earlier unused codes (only the
    /// newest code printed for a patient works). Existing patient tokens stay valid; use
    /// `reissue` to cut them off.
    ///
    /// - Throws: `ActivationError.patientNotFound`, `.patientWithdrawn`, or database errors.
    public static func issueCode(_ db: Connection, patientId: Int64, now: Double,
                                 ttl: Double = ActivationPolicy.standard.codeLifetime) throws -> IssuedActivationCode {
        _ = try activePatient(db, patientId)
        let nowMs = epochMilliseconds(now)
        try ActivationRepository.revokeUnusedCodes(db, patientId: patientId, at: nowMs)
        let code = try Secrets.newActivationCode()
        let expiresAt = nowMs + Int64((ttl * 1000).rounded())
        try ActivationRepository.insertCode(db, patientId: patientId,
                                            hash: Secrets.activationCodeHash(normalizedCode: code, patientId: patientId),
                                            at: nowMs, expiresAt: expiresAt)
        return (code, expiresAt)
    }

    /// For a lost or reinstalled app: revokes every patient token and unused code of the
    /// patient, clears the study ID's activation lock (a nurse vouches for the new attempt),
    /// and issues a new code.
    public static func reissue(_ db: Connection, patientId: Int64, now: Double,
                               ttl: Double = ActivationPolicy.standard.codeLifetime) throws -> IssuedActivationCode {
        let patient = try activePatient(db, patientId)
        let nowMs = epochMilliseconds(now)
        try TokenRepository.revokePatientTokens(db, patientId: patientId, at: nowMs)
        try ActivationAttempts.reset(db, key: patient.studyIdKey)
        return try issueCode(db, patientId: patientId, now: now, ttl: ttl)
    }

    /// Exchanges a code for a patient token.
    ///
    /// Order of checks: a locked study ID is refused first (even with the right code, and the
    /// lock is not extended); then the code must be well-formed, the patient enrolled and not
    /// withdrawn, and the code one of theirs, unused and unrevoked — any miss is `.wrongCode`
    /// and counts a failure (the `maxFailures`-th returns `.locked` and starts the lock); a
    /// right code is then `.accessEnded` when the patient's tokens are past their `lifetime`
    /// (a token issued now would be refused at once), else `.expired` when the code is past
    /// its expiry. Neither counts a failure or writes anything. On success the code is marked
    /// used, a patient token is issued, `patients.activated_at` is set if it was NULL, and the
    /// failure counter is reset.
    ///
    /// - Parameter studyIdKey: the study ID in `patients.study_id_key` form (the caller
    ///   normalizes the request's `studyId` the same way as enrollment does).
    /// - Parameter code: as typed: case-insensitive, dashes and spaces ignored.
    /// - Parameter unenrolled: the in-memory counters of study IDs with no patient (the
    ///   daemon keeps one for its lifetime).
    /// - Parameter lifetime: how long patient tokens work (nil: without end).
    /// - Important: refusals write; commit them (see the type's documentation).
    static func activate(_ db: Connection, studyIdKey: String, code: String, now: Double,
                         policy: ActivationPolicy = .standard, unenrolled: UnenrolledActivationAttempts,
                         lifetime: PatientTokenLifetime? = nil) throws -> ActivationResult {
        let nowMs = epochMilliseconds(now)
        let patient = try ActivationRepository.patient(db, studyIdKey: studyIdKey)
        let counters: any ActivationAttemptStore = patient == nil ? unenrolled : StoredActivationAttempts(db: db)
        let previousFailures: Int
        switch try ActivationAttempts.state(counters, key: studyIdKey, nowMs: nowMs) {
        case .locked(let remainingMs):
            return .locked(retryAfterSeconds: ActivationAttempts.retryAfterSeconds(remainingMs))
        case .open(let failures):
            previousFailures = failures
        }

        func failure() throws -> ActivationResult {
            guard let lockedUntil = try ActivationAttempts.recordFailure(
                counters, key: studyIdKey, previousFailures: previousFailures, policy: policy, nowMs: nowMs)
            else { return .wrongCode }
            return .locked(retryAfterSeconds: ActivationAttempts.retryAfterSeconds(lockedUntil - nowMs), startedNow: true)
        }

        guard let normalized = Secrets.normalizedActivationCode(code), let patient, !patient.isWithdrawn
        else { return try failure() }
        let hash = Secrets.activationCodeHash(normalizedCode: normalized, patientId: patient.id)
        guard let stored = try ActivationRepository.usableCode(db, patientId: patient.id, hash: hash),
              Secrets.hashesMatch(stored.codeHash, hash)
        else { return try failure() }
        if let lifetime, let record = try PatientRepository.load(db, id: patient.id),
           let ended = try lifetime.ended(db, record, now: now) {
            return .accessEnded(ended)
        }
        guard stored.expiresAt > nowMs else { return .expired }

        try ActivationRepository.markUsed(db, codeId: stored.id, at: nowMs)
        let token = try Secrets.newToken(.patient)
        try TokenRepository.insertPatientToken(db, patientId: patient.id, hash: Secrets.tokenHash(token), at: nowMs)
        try ActivationRepository.markActivated(db, patientId: patient.id, at: nowMs)
        try ActivationAttempts.reset(db, key: studyIdKey)
        return .activated(patientId: patient.id, studyId: patient.studyId, token: token)
    }

    /// Deletes stored activation failure counters with no lock in force and no failure for
    /// `olderThan` seconds (default a day) — among them the rows that earlier releases wrote
    /// for study IDs that were never enrolled. For a maintenance job; returns the rows deleted.
    @discardableResult
    public static func pruneAttempts(_ db: Connection, now: Double, olderThan: Double = 24 * 3600) throws -> Int {
        try ActivationAttempts.prune(db, nowMs: epochMilliseconds(now),
                                     olderThanMs: Int64((olderThan * 1000).rounded()))
    }

    // MARK: Helpers

    private static func activePatient(_ db: Connection, _ patientId: Int64) throws -> ActivationRepository.Patient {
        guard let patient = try ActivationRepository.patient(db, id: patientId) else {
            throw ActivationError.patientNotFound(patientId)
        }
        guard !patient.isWithdrawn else { throw ActivationError.patientWithdrawn(studyId: patient.studyId) }
        return patient
    }
}
