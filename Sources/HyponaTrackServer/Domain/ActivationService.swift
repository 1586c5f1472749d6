import HTJSON
import HyponaTrackCore
import SQLite

/// `POST /v1/activate` and staff management: the security components inside a write
/// transaction, with their audit rows.
public final class ActivationService: Sendable {
    let database: Database
    let clock: any ServerClock
    let policy: ActivationPolicy
    let rules: ActiveRules
    let outbox: SyncOutbox?

    init(database: Database, clock: any ServerClock, configuration: ServerConfiguration, rules: ActiveRules,
         outbox: SyncOutbox? = nil) {
        self.database = database
        self.clock = clock
        self.rules = rules
        self.outbox = outbox
        policy = ActivationPolicy(codeLifetime: configuration.activation.codeTTLSeconds,
                                  maxFailures: configuration.activation.maxFailures,
                                  lockout: configuration.activation.lockoutSeconds)
    }

    public func activate(body: JSONValue, clientIP: String) throws -> JSONValue {
        let studyId: String, code: String
        do {
            let r = try ObjectReader(body)
            studyId = try r.required("studyId", .string(length: 1...64, expected: "a study ID", ValueRanges.isValidStudyId))
            code = try r.required("code", .string(length: 1...64))
            try r.finish()
        } catch { throw DomainError.from(error) }
        let now = clock.now()
        let ms = epochMilliseconds(now)
        // Refusals write too (failure counter, lock): they are returned from the job, committed,
        // and only then turned into errors.
        let outcome: (ActivationResult, PatientRecord?) = try database.write { db in
            let result = try Activation.activate(db, studyIdKey: PatientRecord.key(studyId), code: code, now: now, policy: policy)
            switch result {
            case .activated(let patientId, let sid, _):
                try AuditLog.append(db, at: ms, actor: "patient:\(sid)", action: .activationSuccess, subject: sid, details: [:])
                let patient = try PatientRepository.load(db, id: patientId)
                if let patient { try outbox?.enqueueBaseline(db, patient, snapshot: rules.snapshot, at: ms) }
                return (result, patient)
            case .wrongCode, .locked, .expired:
                try AuditLog.append(db, at: ms, actor: "anonymous", action: .activationFailure, subject: studyId.prefix(64).description,
                                    details: ["outcome": .string(Self.outcomeName(result)), "ip": .string(clientIP)])
                return (result, nil)
            }
        }
        outbox?.wake()
        switch outcome {
        case (.activated(_, let sid, let token), let patient?):
            let window = MonitoringWindow(profile: patient.profile, rules: rules.snapshot.rules.reminders,
                                          withdrawalDate: patient.withdrawalDate)
            return ["token": .string(token), "studyId": .string(sid), "surgeryDate": .string(patient.profile.surgeryDate.description),
                    "timeZone": .string(patient.profile.timeZone), "monitoringEnds": .string(window.last.description)]
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

    // MARK: staff

    public func addStaff(body: JSONValue, actor: String) throws -> JSONValue {
        let name: String, roleName: String
        do {
            let r = try ObjectReader(body)
            name = try r.required("name", .string(length: 1...64, expected: "a name of letters, digits, '.', '_' or '-'",
                                                   StaffDirectory.isValidName))
            roleName = try r.required("role", .oneOf(Role.allCases.map(\.rawValue)))
            try r.finish()
        } catch { throw DomainError.from(error) }
        let now = clock.now()
        return try database.write { db in
            guard try StaffDirectory.findStaff(db, name: name) == nil else {
                throw DomainError.conflict("a staff member named \(name) exists", field: "name")
            }
            let (member, token) = try StaffDirectory.createStaff(db, name: name, role: Role(rawValue: roleName)!, by: actor, now: now)
            try AuditLog.append(db, at: epochMilliseconds(now), actor: actor, action: .staffAdd, subject: "staff:\(member.name)",
                                details: ["role": .string(member.role.rawValue)])
            return ["name": .string(member.name), "role": .string(member.role.rawValue), "token": .string(token)]
        }
    }

    public func listStaff() throws -> JSONValue {
        try database.read { db in
            .array(try StaffDirectory.listStaff(db).map { m in
                ["name": .string(m.name), "role": .string(m.role.rawValue), "active": .bool(m.isActive),
                 "createdAt": .string(iso8601UTC(milliseconds: m.createdAt)),
                 "revokedAt": .string(m.revokedAt.map { iso8601UTC(milliseconds: $0) })]
            })
        }
    }

    public func revokeStaff(name: String, actor: String) throws -> JSONValue {
        guard StaffDirectory.isValidName(name) else { throw DomainError.invalid("name", "not a staff name") }
        let now = clock.now()
        return try database.write { db in
            guard let existing = try StaffDirectory.findStaff(db, name: name), existing.isActive else {
                throw DomainError.notFound("no active staff member named \(name)")
            }
            let member: StaffMember
            do { member = try StaffDirectory.revokeStaff(db, name: name, by: actor, now: now) } catch let e as StaffError {
                throw DomainError.conflict(e.description)   // e.g. the last active admin
            }
            try AuditLog.append(db, at: epochMilliseconds(now), actor: actor, action: .staffRevoke, subject: "staff:\(member.name)",
                                details: ["role": .string(member.role.rawValue)])
            return ["name": .string(member.name), "role": .string(member.role.rawValue), "active": false]
        }
    }
}
