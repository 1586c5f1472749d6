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
/// compared with the computed one in constant time. Revocation, rotation and withdrawal take
/// effect from the next request on. Read-only: it can run on a reader connection.
///
/// Requests go through `check(_ database:…)`, which answers from `TokenCache` when it can: a
/// cached owner counts only until something ends a token's validity (staff revoke and rotate,
/// patient reissue and withdrawal, a changed profile), each of which moves the cache on in its
/// write transaction and again after its COMMIT. A patient token's expiry is not stored: it is
/// computed from the patient's stored profile and evaluations and the time
/// (`PatientTokenLifetime`); the cache keeps an owner only until the shortest possible end.
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
        return try check(db, kind: kind, hash: Secrets.tokenHash(token), now: now, patientTokens: patientTokens)
    }

    /// `check(_:bearer:now:patientTokens:)` for a request: answered from the database's
    /// `TokenCache` when it holds the token, else read (one read transaction) and cached.
    public static func check(_ database: Database, bearer token: String, now: Double,
                             patientTokens: PatientTokenLifetime?) throws -> TokenCheck {
        guard let kind = Secrets.tokenKind(of: token) else { return .invalid }
        let hash = Secrets.tokenHash(token), cache = database.tokens
        let rulesVersion = patientTokens?.rulesVersion
        if let principal = cache.principal(forHash: hash, now: now, rulesVersion: rulesVersion) { return .valid(principal) }
        let generation = cache.currentGeneration   // before the read transaction begins
        // Staff tokens and patient tokens without a lifetime count until a change; a patient
        // token with one, until the instant it cannot have reached before (nil: no such instant
        // ahead, so it is not cached).
        let (result, cacheable, validUntil) = try database.read { db -> (TokenCheck, Bool, Double?) in
            let result = try check(db, kind: kind, hash: hash, now: now, patientTokens: patientTokens)
            guard case .valid(.patient(let patientId, _)) = result, let patientTokens else { return (result, true, nil) }
            let until = try patientTokens.certainlyValidUntil(db, patientId: patientId).flatMap { $0 > now ? $0 : nil }
            return (result, until != nil, until)
        }
        if cacheable, case .valid(let principal) = result {
            cache.store(.init(principal: principal, generation: generation, validUntil: validUntil, rulesVersion: rulesVersion),
                        forHash: hash)
        }
        return result
    }

    private static func check(_ db: Connection, kind: Secrets.TokenKind, hash: String, now: Double,
                              patientTokens: PatientTokenLifetime?) throws -> TokenCheck {
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
