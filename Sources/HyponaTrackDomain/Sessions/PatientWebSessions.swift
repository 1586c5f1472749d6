import Crypto
import HTJSON
import HyponaTrackCore
import SQLite

/// A patient signed in to the web check-in: the patient token from the `ht_patient` cookie.
public struct PatientWebSession: Sendable {
    public var patientId: Int64
    public var studyId: String
    /// Bound to the token: SHA-256 over it, never stored.
    public var csrfToken: String
    /// The stored form of the cookie's token (`Secrets.tokenHash`): what a sign-out revokes.
    var tokenHash: String

    public var actor: String { "patient:\(studyId)" }
}

/// The patient behind an `ht_patient` cookie: the same token check as the API's bearer tokens
/// (revoked, withdrawn and expired tokens refused), and when the cookie should expire.
public final class PatientWebSessions: Sendable {
    public let database: Database
    public let clock: any ServerClock
    public let lifetime: PatientTokenLifetime?

    public init(database: Database, clock: any ServerClock, lifetime: PatientTokenLifetime?) {
        self.database = database
        self.clock = clock
        self.lifetime = lifetime
    }

    public func session(token: String) throws -> PatientWebSession? {
        let now = clock.now()
        guard case .valid(.patient(let id, let studyId)) = try Authenticator.check(database, bearer: token, now: now,
                                                                                    patientTokens: lifetime) else { return nil }
        return PatientWebSession(patientId: id, studyId: studyId, csrfToken: Self.csrfToken(token), tokenHash: Secrets.tokenHash(token))
    }

    /// Ends a web sign-in for good: the cookie's token is revoked (audited with the client's
    /// address and why), so a loan phone handed on keeps no working token for `/app/` or
    /// `/v1/me/*`. Only this token: the patient's app, signed in with its own, is unaffected.
    public func signOut(_ session: PatientWebSession, ip: String, switchedTo: String? = nil) throws {
        let ms = epochMilliseconds(clock.now())
        try database.write { db in
            guard try TokenRepository.revokePatientToken(db, hash: session.tokenHash, at: ms) else { return }
            try AuditLog.append(db, at: ms, actor: session.actor, action: .patientSignOut, subject: session.studyId,
                                details: AuditDetails.WebSignOut(ip: ip, switchedTo: switchedTo))
        }
    }

    /// Seconds until the token stops working (the cookie's `Max-Age`); 30 days without a lifetime.
    public func secondsLeft(patientId: Int64) throws -> Int {
        let now = clock.now()
        guard let lifetime, let end = try database.read({ db in try lifetime.end(db, patientId: patientId) }) else { return 30 * 86400 }
        return max(60, Int(end - now))
    }

    public static func csrfToken(_ token: String) -> String { Crypto.hex(Crypto.sha256(Array(("csrf:" + token).utf8))) }
}
