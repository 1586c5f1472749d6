import HTJSON
import HyponaTrackCore

/// Why a service refused an operation, in the domain's words. Services throw only this (and
/// infrastructure errors, which are bugs or a failing disk); `API/` alone turns it into an HTTP
/// status and an error code.
public enum DomainError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Input that cannot be accepted, with the JSON path of the field (nil: the input as a whole).
    case rejected(FieldError)
    /// The patient, alert, lab value or staff member does not exist. `missing` says which for a
    /// page that words it in its language (`FieldMessages`), as a conflict's `problem` does; nil
    /// where only the message (English, for the API) says it.
    case notFound(String, missing: Missing? = nil)
    /// The operation does not fit the current state (already enrolled, already resolved, withdrawn…).
    /// `problem` says which for a page that words it in its language (`FieldMessages`), as a field
    /// error's `problem` does; nil where only the message (English, for the API) says it.
    case conflict(String, field: String? = nil, problem: ConflictProblem? = nil)
    /// The write would take the day's list `field` (`symptoms`, …) past `limit` items
    /// (`limits.itemsPerList`); nothing of it was stored.
    case limitReached(field: String, limit: Int)
    /// The patient has `limit` push devices and this registration would add one more (the
    /// field is `deviceId`); nothing was stored. Replacing a registered device is allowed.
    case devicesFull(limit: Int)
    /// The caller's credential no longer identifies anyone (a patient withdrawn mid-request).
    case unauthenticated
    /// The caller is known but may not do this.
    case forbidden(String)
    /// An activation attempt the patient can act on: wrong code, expired code, locked out, or
    /// the patient's access already over.
    case activation(ActivationRefusal)
    /// A console sign-in refused: wrong name or password (never which), or locked out.
    case signIn(SignInRefusal)
    /// Work of a bounded kind (`AdmissionGate`) refused at once because as much of it as may
    /// run and wait is in already; nothing was done, the same request later is fine.
    case busy(BusyWork, retryAfterSeconds: Int)
    /// REDCap answered in a way the server cannot use.
    case upstream(String)
    /// A check the server runs on its own work failed (a backup's integrity check).
    case integrity(String)

    /// A refused activation: each case tells the patient something different.
    public enum ActivationRefusal: Sendable, Equatable {
        case wrongCredentials
        case expired
        case locked(retryAfterSeconds: Int)
        /// The right code, but the patient's tokens stopped working after `lastDay`
        /// (`tokens.patientDaysAfterMonitoring` after the monitoring window): no new code helps.
        case accessEnded(lastDay: LocalDate)
    }

    public enum SignInRefusal: Sendable, Equatable {
        case wrongCredentials
        /// The password was right, the second factor's code was not (or was used already).
        case wrongCode
        case locked(retryAfterSeconds: Int)
    }

    /// What does not exist (the records a console page names in its address).
    public enum Missing: Sendable, Equatable {
        case patient(studyId: String)
        case alert(id: Int64)
        /// An alert a request names (`alertId`) that is not one of the patient's: another
        /// patient's alert is not told apart from one that does not exist.
        case alertOfPatient(id: Int64, studyId: String)
        case proposal(id: Int64)
    }

    /// What a conflict is about (the ones a console page can meet).
    public enum ConflictProblem: Sendable, Equatable {
        /// The alert is no longer open (acknowledge) or is resolved (resolve).
        case alertAlready(id: Int64, AlertState)
        /// The proposal was decided already, superseded or withdrawn: only a pending one is decided.
        case proposalAlready(id: Int64, ProposalStatus)
        /// The value the proposal would replace has changed since it was made: confirming needs the override.
        case proposalOutdated
        /// The proposal deletes a day field's value, which a proposal cannot apply.
        case proposalWithoutValue
        /// The patient has withdrawn from the study.
        case patientWithdrawn
        /// A profile field that dates the patient's data (`surgeryDate`, `timeZone`) cannot change
        /// once days or lab values are stored: they were dated with the old value.
        case fixedOnceDataExists(field: String)
        /// The patient's app access ended on `lastDay` (`tokens.patientDaysAfterMonitoring` after
        /// the monitoring period): a new activation code could not be used, so none is issued.
        case accessEnded(lastDay: LocalDate)
        /// Another patient (compared case-insensitively) already has the study ID.
        case alreadyEnrolled(studyId: String)
    }

    /// What a `busy` refusal was bounding.
    public enum BusyWork: String, Sendable, Equatable {
        /// Console password checks (`SessionService.passwordChecks`).
        case signIns
        /// Reads on the long-read connections (`Transactions.longRead`): audit verify and list,
        /// exports, the report, statistics, backups.
        case longReads
    }

    public static func invalid(_ field: String?, _ message: String, problem: FieldError.Problem? = nil) -> DomainError {
        .rejected(FieldError.invalid(field, message, problem: problem))
    }

    public static func from(_ error: FieldError) -> DomainError { .rejected(error) }

    /// No patient with this study ID — or none the caller's sites reach: the two are one answer
    /// (docs/product.md, third round, S), so this is the only place either is worded.
    public static func noPatient(_ studyId: String) -> DomainError {
        .notFound("no patient with study ID \(studyId.prefix(64))", missing: .patient(studyId: String(studyId.prefix(64))))
    }

    /// No alert with this id, or none of a patient the caller's sites reach.
    public static func noAlert(_ id: Int64) -> DomainError { .notFound("no alert \(id)", missing: .alert(id: id)) }

    /// No proposal with this id, or none of a patient the caller's sites reach.
    public static func noProposal(_ id: Int64) -> DomainError { .notFound("no proposal \(id)", missing: .proposal(id: id)) }

    public var description: String {
        switch self {
        case .rejected(let e): return "rejected: \(e)"
        case .notFound(let m, _): return "not found: \(m)"
        case .conflict(let m, let field, _): return "conflict: \(m)\(field.map { " (\($0))" } ?? "")"
        case .limitReached(let field, let limit): return "limit reached: \(field) holds at most \(limit) items a day"
        case .devicesFull(let limit): return "limit reached: at most \(limit) push devices"
        case .unauthenticated: return "unauthenticated"
        case .forbidden(let m): return "forbidden: \(m)"
        case .activation(let r): return "activation refused: \(r)"
        case .signIn(let r): return "sign-in refused: \(r)"
        case .busy(let work, let seconds): return "busy: \(work.rawValue), retry after \(seconds) s"
        case .upstream(let m): return "upstream: \(m)"
        case .integrity(let m): return "integrity: \(m)"
        }
    }
}
