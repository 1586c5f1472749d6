import HyponaTrackCore
import SQLite

/// `POST /v1/activate`: a one-time code exchanged for a patient token.
public struct Activate: Sendable {
    public var studyId: String
    /// As typed: case-insensitive, dashes and spaces ignored.
    public var code: String
    /// Refusals are counted per address (`ActivationRefusals`).
    public var clientIP: String
    /// What this activation says about `PatientProfile.webOnly`: the last web activation decides.
    /// The web check-in sends true unless the patient ticked "I also use the HyponaTrack app"; the
    /// app (`POST /v1/activate`) sends nil, leaving the profile as enrolment, the nurse
    /// (`update --web-only`) or an earlier web activation set it.
    public var webOnly: Bool?

    public init(studyId: String, code: String, clientIP: String, webOnly: Bool? = nil) {
        self.studyId = studyId
        self.code = code
        self.clientIP = clientIP
        self.webOnly = webOnly
    }
}

/// A successful activation: the patient token (plain text only here, shown once) and what the
/// app needs to start.
public struct Activated: Sendable, Equatable {
    public var token: String
    public var studyId: String
    public var surgeryDate: LocalDate
    public var timeZone: String
    /// The last day of the monitoring window.
    public var monitoringEnds: LocalDate
}

/// Activation, with its audit rows, inside a write transaction; and, created here so that the
/// daemon builds both from the same parts, staff management (`staffService`).
///
/// A success is audited (`activation.success`) as before; a refusal writes no row of its own:
/// it is counted in `refusals` (metrics, and a summary per address in the audit trail at most
/// once a minute), an enrolled patient's failure counter is updated in place, and only the
/// failure that starts a lockout is audited (`activation.lockout`, once per lockout).
public final class ActivationService: Sendable {
    let transactions: Transactions
    public let clock: any ServerClock
    public let policy: ActivationPolicy
    public let rules: ActiveRules
    let outbox: SyncOutbox?
    /// Refused attempts by outcome and address.
    public let refusals: ActivationRefusals
    /// The failure counters of study IDs that are not enrolled (memory only).
    let unenrolled = UnenrolledActivationAttempts()
    /// Staff members: add, list, revoke, rotate.
    public let staffService: StaffService
    /// How long patient tokens work: no token is issued to a patient past it.
    public let tokenLifetime: PatientTokenLifetime

    init(database: Database, clock: any ServerClock, configuration: ServerConfiguration, rules: ActiveRules,
         outbox: SyncOutbox? = nil, refusals: ActivationRefusals = ActivationRefusals()) {
        // Activation queues the patient's baseline row (the sync is woken after the commit);
        // neither it nor a staff change queues hook events.
        transactions = Transactions(database: database, wakeSync: { outbox?.wake() }, wakeHooks: {})
        staffService = StaffService(transactions: Transactions(database: database, wakeSync: {}, wakeHooks: {}), clock: clock)
        self.clock = clock
        self.rules = rules
        self.outbox = outbox
        self.refusals = refusals
        tokenLifetime = PatientTokenLifetime(configuration: configuration, rules: rules)
        policy = ActivationPolicy(codeLifetime: configuration.activation.codeTTLSeconds,
                                  maxFailures: configuration.activation.maxFailures,
                                  lockout: configuration.activation.lockoutSeconds)
    }

    public func activate(_ command: Activate) throws -> Activated {
        let now = clock.now()
        let ms = epochMilliseconds(now)
        let studyId = command.studyId
        // Refusals write too (an enrolled patient's failure counter, lock): they are returned from
        // the job, committed, and only then turned into errors.
        let outcome: (ActivationResult, PatientRecord?) = try transactions.write { db in
            let result = try Activation.activate(db, studyIdKey: PatientRecord.key(studyId), code: command.code, now: now,
                                                 policy: policy, unenrolled: unenrolled, lifetime: tokenLifetime)
            switch result {
            case .activated(let patientId, let sid, _):
                // The client's address, as a lockout records it: who took over a study ID is traceable.
                try AuditLog.append(db, at: ms, actor: "patient:\(sid)", action: .activationSuccess, subject: sid,
                                    details: AuditDetails.Activated(ip: command.clientIP, webOnly: command.webOnly))
                var patient = try PatientRepository.load(db, id: patientId)
                if let webOnly = command.webOnly, var p = patient, p.profile.webOnly != webOnly {
                    p.profile.webOnly = webOnly
                    try PatientRepository.updateProfile(db, id: p.id, profile: p.profile, at: ms)
                    try AuditLog.append(db, at: ms, actor: "patient:\(sid)", action: .patientUpdate, subject: sid,
                                        details: AuditDetails.WebOnlyChanged(webOnly: .init(from: !webOnly, to: webOnly)))
                    patient = p
                }
                if let patient { try outbox?.enqueueBaseline(db, patient, snapshot: rules.snapshot, at: ms) }
                return (result, patient)
            case .locked(_, startedNow: true):
                if let patient = try PatientRepository.load(db, studyId: studyId) {
                    try AuditLog.append(db, at: ms, actor: "anonymous", action: .activationLockout, subject: patient.studyId,
                                        details: AuditDetails.ActivationLockout(
                                            ip: command.clientIP, failures: policy.maxFailures,
                                            lockedUntil: iso8601UTC(milliseconds: ms + Int64((policy.lockout * 1000).rounded()))))
                }
                return (result, nil)
            case .wrongCode, .locked, .expired, .accessEnded:
                return (result, nil)
            }
        }
        if let refusal = Self.refusalOutcome(outcome.0) { refusals.record(ip: command.clientIP, refusal) }
        switch outcome {
        case (.activated(_, let sid, let token), let patient?):
            let window = MonitoringWindow(profile: patient.profile, rules: rules.snapshot.rules.reminders,
                                          withdrawalDate: patient.withdrawalDate)
            return Activated(token: token, studyId: sid, surgeryDate: patient.profile.surgeryDate, timeZone: patient.profile.timeZone,
                             monitoringEnds: window.last)
        case (.locked(let seconds, _), _):
            throw DomainError.activation(.locked(retryAfterSeconds: seconds))
        case (.expired, _):
            throw DomainError.activation(.expired)
        case (.accessEnded(let ended), _):
            throw DomainError.activation(.accessEnded(lastDay: ended.lastDay))
        default:
            throw DomainError.activation(.wrongCredentials)
        }
    }

    /// How a refusal is counted; nil for a success.
    public static func refusalOutcome(_ r: ActivationResult) -> ActivationRefusals.Outcome? {
        switch r {
        case .activated: return nil
        case .wrongCode: return .wrongCode
        case .locked: return .locked
        // Both answer 410 `expired`, so both are counted as such.
        case .expired, .accessEnded: return .expired
        }
    }
}
