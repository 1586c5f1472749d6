/// A freshly issued activation code: `code` in canonical form (10 characters of
/// `Secrets.activationAlphabet`, e.g. `K7QM2XRH9C`; `Secrets.groupedActivationCode` gives the
/// `K7QM2-XRH9C` display form, also accepted back) and `expiresAt` in ms since the epoch. The
/// plain code exists only in this value, to be shown to the nurse once; the database holds
/// its hash.
public typealias IssuedActivationCode = (code: String, expiresAt: Int64)

/// Limits for activation attempts (docs/product.md: default 72 h, 5 failures → 15 min).
public struct ActivationPolicy: Sendable, Equatable {
    /// How long a new code stays valid, in seconds.
    public var codeLifetime: Double
    /// Consecutive failures per study ID that trigger the lock.
    public var maxFailures: Int
    /// How long the lock lasts, in seconds.
    public var lockout: Double

    public init(codeLifetime: Double = 72 * 3600, maxFailures: Int = 5, lockout: Double = 15 * 60) {
        self.codeLifetime = codeLifetime
        self.maxFailures = maxFailures
        self.lockout = lockout
    }

    /// The product defaults.
    public static let standard = ActivationPolicy()
}

/// The outcome of `Activation.activate`. Refusals are results, not thrown errors, because
/// they write (the failure counter, the lock) and those writes must be committed.
public enum ActivationResult: Sendable, Equatable {
    /// HTTP 200. The code is now used; `token` is the new patient token (plain text exists only
    /// here).
    case activated(patientId: Int64, studyId: String, token: String)
    /// HTTP 401 `unauthenticated`. Wrong, used or revoked code, unknown study ID or withdrawn
    /// patient — deliberately indistinguishable. Counted as a failure.
    case wrongCode
    /// HTTP 429 `locked` with `Retry-After: retryAfterSeconds`. Returned while the study ID is
    /// locked (even for the right code, and without extending the lock) and, with `startedNow`,
    /// by the failure that starts the lock (audited once per lockout).
    case locked(retryAfterSeconds: Int, startedNow: Bool = false)
    /// HTTP 410 `expired`. The right code, but past its expiry; not counted as a failure
    /// (whoever sent it held the real code). A nurse must reissue.
    case expired
    /// HTTP 410 `expired`. The right code, but the patient's tokens have outlived the
    /// monitoring period (`tokens.patientDaysAfterMonitoring`), so a token issued now would be
    /// refused at once; not counted as a failure, nothing written. Reissuing cannot help.
    case accessEnded(PatientTokenLifetime.Ended)
}

/// Why issuing a code was refused (staff side). Database failures are `SQLiteError`.
public enum ActivationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No patient has this id (HTTP 404 `not_found`).
    case patientNotFound(Int64)
    /// The patient is withdrawn; a withdrawn patient cannot be activated (HTTP 409 `conflict`).
    case patientWithdrawn(studyId: String)

    public var description: String {
        switch self {
        case .patientNotFound(let id): return "no patient with id \(id)"
        case .patientWithdrawn(let studyId): return "patient \(studyId) is withdrawn and cannot be activated"
        }
    }
}
