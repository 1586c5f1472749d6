import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import SQLite

extension StudyService {
    public struct Enrollment: Sendable {
        public var patient: PatientRecord
        public var risk: RiskAssessment
        public var activationCode: String
        public var activationExpiresAt: Int64
        public var monitoringEnds: LocalDate
    }

    /// `POST /v1/patients`: validates the profile (case format), stores it, scores the risk,
    /// issues the one-time activation code. A study ID already in use (case-insensitively) is 409.
    public func enroll(body: JSONValue, actor: String) throws -> Enrollment {
        let snapshot = rules.snapshot
        let profile: PatientProfile
        do { profile = try ProfileDecoder.decode(body, path: "", rules: snapshot.rules) } catch { throw DomainError.from(error) }
        let (now, ms) = nowMilliseconds()
        try checkSurgeryDate(profile, now: now, field: "surgeryDate")
        return try write { db in
            guard try !PatientRepository.exists(db, studyId: profile.studyId) else {
                throw DomainError.conflict("study ID \(profile.studyId) is already enrolled", field: "studyId")
            }
            let id = try PatientRepository.insert(db, profile: profile, by: actor, at: ms)
            let issued = try Activation.issueCode(db, patientId: id, now: now, ttl: configuration.activation.codeTTLSeconds)
            let risk = snapshot.engine.risk.assess(profile)
            try AuditLog.append(db, at: ms, actor: actor, action: .patientEnroll, subject: profile.studyId,
                                details: ["profile": ModelJSON.profile(profile), "riskScore": .int(risk.riskScore),
                                          "riskClass": .string(risk.riskClass.rawValue), "katBPending": .bool(risk.katBPending),
                                          "rulesVersion": .string(snapshot.rules.version)])
            let record = try PatientRepository.load(db, id: id)!
            try outbox?.enqueueBaseline(db, record, snapshot: snapshot, at: ms)
            let window = MonitoringWindow(profile: profile, rules: snapshot.rules.reminders)
            return Enrollment(patient: record, risk: risk, activationCode: issued.code,
                              activationExpiresAt: issued.expiresAt, monitoringEnds: window.last)
        }
    }

    /// Surgery date: not in the future and not more than 60 days ago, in the patient's time zone.
    func checkSurgeryDate(_ profile: PatientProfile, now: Double, field: String) throws {
        let today = today(profile, now: now)
        if profile.surgeryDate > today {
            throw DomainError.invalid(field, "the surgery date \(profile.surgeryDate) is in the future")
        }
        if profile.surgeryDate.days(to: today) > ValueRanges.surgeryDateMaxDaysAgo {
            throw DomainError.invalid(field, "the surgery date is more than \(ValueRanges.surgeryDateMaxDaysAgo) days ago")
        }
    }

    /// `POST /v1/patients/{id}/activation`: a new code; every earlier patient token and code stops working.
    public func reissueActivation(studyId: String, actor: String) throws -> (code: String, expiresAt: Int64) {
        let (now, ms) = nowMilliseconds()
        return try write { db in
            let patient = try patient(db, studyId: studyId)
            guard !patient.isWithdrawn else { throw DomainError.conflict("the patient has withdrawn") }
            let issued = try Activation.reissue(db, patientId: patient.id, now: now, ttl: configuration.activation.codeTTLSeconds)
            try AuditLog.append(db, at: ms, actor: actor, action: .activationReissue, subject: patient.studyId,
                                details: ["expiresAt": .string(iso8601UTC(milliseconds: issued.expiresAt))])
            return issued
        }
    }
}
