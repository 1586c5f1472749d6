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
        let row = try db.queryOne("""
            SELECT t.token_hash, s.id, s.name, s.role
            FROM staff_tokens AS t JOIN staff AS s ON s.id = t.staff_id
            WHERE t.token_hash = ?
              AND t.revoked_at IS NULL
              AND (t.expires_at IS NULL OR t.expires_at > ?)
              AND s.revoked_at IS NULL
            """, [hash, nowMs])
        guard let row, Secrets.hashesMatch(try row.string("token_hash"), hash),
              let role = Role(rawValue: try row.string("role"))
        else { return nil }
        return .staff(id: try row.int64("id"), name: try row.string("name"), role: role)
    }

    private static func patientPrincipal(_ db: Connection, hash: String, nowMs: Int64) throws -> Principal? {
        let row = try db.queryOne("""
            SELECT t.token_hash, p.id, p.study_id
            FROM patient_tokens AS t JOIN patients AS p ON p.id = t.patient_id
            WHERE t.token_hash = ?
              AND t.revoked_at IS NULL
              AND (t.expires_at IS NULL OR t.expires_at > ?)
              AND p.withdrawn_at IS NULL
            """, [hash, nowMs])
        guard let row, Secrets.hashesMatch(try row.string("token_hash"), hash) else { return nil }
        return .patient(patientId: try row.int64("id"), studyId: try row.string("study_id"))
    }
}
