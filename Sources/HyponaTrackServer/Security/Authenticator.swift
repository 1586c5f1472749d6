import SQLite

/// Turns a bearer token into a `Principal`.
///
/// Tokens are looked up by their SHA-256 hash (the only form stored), then the stored hash is
/// compared with the computed one in constant time. Revocation and withdrawal are checked on
/// every request, so they take effect at once. Read-only: it can run on a reader connection.
public enum Authenticator {
    /// The principal a bearer token stands for, or nil if it stands for nobody.
    ///
    /// - A staff token (`hts_…`) is valid unless it is revoked or expired, or its staff
    ///   member is revoked.
    /// - A patient token (`htp_…`) is valid unless it is revoked or expired, or its patient
    ///   is withdrawn (`patients.withdrawn_at` set).
    /// - Anything else (empty, wrong prefix, wrong length, non-base64url characters) is nil
    ///   without a database query.
    ///
    /// Throws only database errors; a refused token is not an error.
    public static func authenticate(_ db: Connection, bearer token: String, now: Double) throws -> Principal? {
        guard let kind = Secrets.tokenKind(of: token) else { return nil }
        let hash = Secrets.tokenHash(token)
        let nowMs = epochMilliseconds(now)
        switch kind {
        case .staff:
            return try staffPrincipal(db, hash: hash, nowMs: nowMs)
        case .patient:
            return try patientPrincipal(db, hash: hash, nowMs: nowMs)
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
