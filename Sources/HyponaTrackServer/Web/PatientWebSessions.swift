import Crypto
import HyponaTrackCore
import SQLite

/// A patient signed in to the web check-in: the patient token from the `ht_patient` cookie.
public struct PatientWebSession: Sendable {
    public var patientId: Int64
    public var studyId: String
    /// Bound to the token: SHA-256 over it, never stored.
    public var csrfToken: String

    public var actor: String { "patient:\(studyId)" }
}

/// The patient behind an `ht_patient` cookie: the same token check as the API's bearer tokens
/// (revoked, withdrawn and expired tokens refused), and when the cookie should expire.
final class PatientWebSessions: Sendable {
    let database: Database
    let clock: any ServerClock
    let lifetime: PatientTokenLifetime?

    init(database: Database, clock: any ServerClock, lifetime: PatientTokenLifetime?) {
        self.database = database
        self.clock = clock
        self.lifetime = lifetime
    }

    func session(token: String) throws -> PatientWebSession? {
        let now = clock.now()
        guard case .valid(.patient(let id, let studyId)) = try Authenticator.check(database, bearer: token, now: now,
                                                                                    patientTokens: lifetime) else { return nil }
        return PatientWebSession(patientId: id, studyId: studyId, csrfToken: Self.csrfToken(token))
    }

    /// Seconds until the token stops working (the cookie's `Max-Age`); 30 days without a lifetime.
    func secondsLeft(patientId: Int64) throws -> Int {
        let now = clock.now()
        guard let lifetime, let end = try database.read({ db in try lifetime.end(db, patientId: patientId) }) else { return 30 * 86400 }
        return max(60, Int(end - now))
    }

    static func csrfToken(_ token: String) -> String { Crypto.hex(Crypto.sha256(Array(("csrf:" + token).utf8))) }
}
