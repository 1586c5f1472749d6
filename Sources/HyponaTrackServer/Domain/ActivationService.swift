import HyponaTrackCore
import SQLite

/// `POST /v1/activate`: a one-time code exchanged for a patient token.
public struct Activate: Sendable {
    public var studyId: String
    /// As typed: case-insensitive, dashes and spaces ignored.
    public var code: String
    /// Recorded with a refusal.
    public var clientIP: String
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
public final class ActivationService: Sendable {
    let transactions: Transactions
    let clock: any ServerClock
    let policy: ActivationPolicy
    let rules: ActiveRules
    let outbox: SyncOutbox?
    /// Staff members: add, list, revoke.
    public let staffService: StaffService

    init(database: Database, clock: any ServerClock, configuration: ServerConfiguration, rules: ActiveRules,
         outbox: SyncOutbox? = nil) {
        // Activation queues the patient's baseline row (the sync is woken after the commit);
        // neither it nor a staff change queues hook events.
        transactions = Transactions(database: database, wakeSync: { outbox?.wake() }, wakeHooks: {})
        staffService = StaffService(transactions: Transactions(database: database, wakeSync: {}, wakeHooks: {}), clock: clock)
        self.clock = clock
        self.rules = rules
        self.outbox = outbox
        policy = ActivationPolicy(codeLifetime: configuration.activation.codeTTLSeconds,
                                  maxFailures: configuration.activation.maxFailures,
                                  lockout: configuration.activation.lockoutSeconds)
    }

    public func activate(_ command: Activate) throws -> Activated {
        let now = clock.now()
        let ms = epochMilliseconds(now)
        let studyId = command.studyId
        // Refusals write too (failure counter, lock): they are returned from the job, committed,
        // and only then turned into errors.
        let outcome: (ActivationResult, PatientRecord?) = try transactions.write { db in
            let result = try Activation.activate(db, studyIdKey: PatientRecord.key(studyId), code: command.code, now: now,
                                                 policy: policy)
            switch result {
            case .activated(let patientId, let sid, _):
                try AuditLog.append(db, at: ms, actor: "patient:\(sid)", action: .activationSuccess, subject: sid, details: [:])
                let patient = try PatientRepository.load(db, id: patientId)
                if let patient { try outbox?.enqueueBaseline(db, patient, snapshot: rules.snapshot, at: ms) }
                return (result, patient)
            case .wrongCode, .locked, .expired:
                try AuditLog.append(db, at: ms, actor: "anonymous", action: .activationFailure, subject: studyId.prefix(64).description,
                                    details: ["outcome": .string(Self.outcomeName(result)), "ip": .string(command.clientIP)])
                return (result, nil)
            }
        }
        switch outcome {
        case (.activated(_, let sid, let token), let patient?):
            let window = MonitoringWindow(profile: patient.profile, rules: rules.snapshot.rules.reminders,
                                          withdrawalDate: patient.withdrawalDate)
            return Activated(token: token, studyId: sid, surgeryDate: patient.profile.surgeryDate, timeZone: patient.profile.timeZone,
                             monitoringEnds: window.last)
        case (.locked(let seconds), _):
            throw DomainError.activation(.locked(retryAfterSeconds: seconds))
        case (.expired, _):
            throw DomainError.activation(.expired)
        default:
            throw DomainError.activation(.wrongCredentials)
        }
    }

    static func outcomeName(_ r: ActivationResult) -> String {
        switch r {
        case .activated: return "activated"
        case .wrongCode: return "wrong_code"
        case .locked: return "locked"
        case .expired: return "expired"
        }
    }
}
