import SQLite

/// What a bearer token stands for, as `Authenticator.check` decided it.
public enum TokenCheck: Sendable, Equatable {
    case valid(Principal)
    /// A patient token that was valid but whose lifetime is over (HTTP 401 `expired_token`).
    case expired
    /// Nobody: unknown, revoked, withdrawn, malformed (HTTP 401 `unauthenticated`).
    case invalid
}

/// Turns a bearer token into a `Principal`.
///
/// Tokens are looked up by their SHA-256 hash (the only form stored), then the stored hash is
/// compared with the computed one in constant time. Revocation, rotation and withdrawal are
/// checked on every request, so they take effect at once. Read-only: it can run on a reader
/// connection.
///
/// For a future token-lookup cache: what a lookup returns (token hash → owner, unrevoked) may be
/// cached only if every revocation invalidates it — staff revoke and rotate
/// (`TokenRepository.revokeStaffTokens`), patient reissue and withdrawal
/// (`revokePatientTokens`, `patients.withdrawn_at`). A patient token's expiry is not stored: it
/// is computed on each request from the patient's stored profile and evaluations and the time
/// (`PatientTokenLifetime`), so a cached owner never outlives its monitoring period.
public enum Authenticator {
    /// The principal a bearer token stands for, or nil if it stands for nobody. Patient tokens
    /// are not checked for their lifetime here; `check(_:bearer:now:patientTokens:)` does.
    ///
    /// - A staff token (`hts_…`) is valid unless it is revoked (or rotated away) or expired, or
    ///   its staff member is revoked.
    /// - A patient token (`htp_…`) is valid unless it is revoked or expired, or its patient
    ///   is withdrawn (`patients.withdrawn_at` set).
    /// - Anything else (empty, wrong prefix, wrong length, non-base64url characters) is nil
    ///   without a database query.
    ///
    /// Throws only database errors; a refused token is not an error.
    public static func authenticate(_ db: Connection, bearer token: String, now: Double) throws -> Principal? {
        guard case .valid(let principal) = try check(db, bearer: token, now: now, patientTokens: nil) else { return nil }
        return principal
    }

    /// `authenticate(_:bearer:now:)`, and a patient token past `patientTokens`' lifetime is
    /// `.expired` (nil: patient tokens do not expire).
    public static func check(_ db: Connection, bearer token: String, now: Double,
                             patientTokens: PatientTokenLifetime?) throws -> TokenCheck {
        guard let kind = Secrets.tokenKind(of: token) else { return .invalid }
        let hash = Secrets.tokenHash(token)
        let nowMs = epochMilliseconds(now)
        switch kind {
        case .staff:
            return try staffPrincipal(db, hash: hash, nowMs: nowMs).map(TokenCheck.valid) ?? .invalid
        case .patient:
            guard let principal = try patientPrincipal(db, hash: hash, nowMs: nowMs) else { return .invalid }
            guard let lifetime = patientTokens, case .patient(let patientId, _) = principal else { return .valid(principal) }
            return try lifetime.isOver(db, patientId: patientId, now: now) ? .expired : .valid(principal)
        }
    }

    /// `authenticate(_:bearer:now:)` for a raw `Authorization` header value (nil if absent).
    public static func authenticate(_ db: Connection, authorizationHeader: String?, now: Double) throws -> Principal? {
        guard let token = AuthorizationHeader.bearerToken(authorizationHeader) else { return nil }
        return try authenticate(db, bearer: token, now: now)
    }

    private static func staffPrincipal(_ db: Connection, hash: String, nowMs: Int64) throws -> Principal? {
        guard let owner = try TokenRepository.staffOwner(db, hash: hash, now: nowMs),
              Secrets.hashesMatch(owner.tokenHash, hash),
              let role = Role(rawValue: owner.role)
        else { return nil }
        return .staff(id: owner.staffId, name: owner.name, role: role)
    }

    private static func patientPrincipal(_ db: Connection, hash: String, nowMs: Int64) throws -> Principal? {
        guard let owner = try TokenRepository.patientOwner(db, hash: hash, now: nowMs),
              Secrets.hashesMatch(owner.tokenHash, hash)
        else { return nil }
        return .patient(patientId: owner.patientId, studyId: owner.studyId)
    }
}
