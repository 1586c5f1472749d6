import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import SQLite

/// `POST /v1/patients`: a validated profile to enroll.
public struct Enroll: Sendable {
    public var profile: PatientProfile
    /// The site's code (nil: the study's only site; required when it has several).
    public var site: String?
    /// The enrolling member's sites: the patient's must be one of them.
    public var scope: SiteScope
    public var actor: String

    public init(profile: PatientProfile, site: String? = nil, scope: SiteScope = .allSites, actor: String) {
        self.profile = profile
        self.site = site
        self.scope = scope
        self.actor = actor
    }
}

/// `PATCH /v1/patients/{studyId}`: a partial profile in the case format. Nested `katB`/`katC`
/// objects merge member by member and null clears; the merged profile is validated as a whole,
/// so the patch stays in its JSON form until it is merged.
public struct UpdateProfile: Sendable {
    public var studyId: String
    public var patch: ProfilePatch
    public var actor: String

    public init(studyId: String, patch: ProfilePatch, actor: String) {
        self.studyId = studyId
        self.patch = patch
        self.actor = actor
    }
}

/// `POST /v1/patients/{studyId}/withdrawal`.
public struct Withdraw: Sendable {
    public var studyId: String
    public var reason: String
    /// Nil: today in the patient's zone.
    public var date: LocalDate?
    public var actor: String

    public init(studyId: String, reason: String, date: LocalDate? = nil, actor: String) {
        self.studyId = studyId
        self.reason = reason
        self.date = date
        self.actor = actor
    }
}

/// An enrolled patient with the one-time activation code.
public struct Enrollment: Sendable {
    public var patient: PatientRecord
    public var risk: RiskAssessment
    public var activationCode: String
    public var activationExpiresAt: Int64
    public var monitoringEnds: LocalDate
}

/// Enrolment and the patient's profile: enrol, reissue the code, update, withdraw.
public final class EnrollmentService: Sendable {
    let context: StudyContext

    init(context: StudyContext) { self.context = context }

    /// Stores the profile, scores the risk, issues the one-time activation code. A study ID
    /// already in use (case-insensitively) is a conflict.
    public func enroll(_ command: Enroll) throws -> Enrollment {
        let profile = command.profile
        let snapshot = context.rules.snapshot
        let (now, ms) = context.nowMilliseconds()
        try checkSurgeryDate(profile, now: now)
        try checkConsent(profile, previous: nil, now: now)
        return try context.write { db in
            let site = try SiteService.enrolmentSite(db, code: command.site, scope: command.scope)
            // Study IDs are unique across the study: this tells a member of another site that the
            // ID exists, nothing more (docs/product.md, settled S).
            guard try !PatientRepository.exists(db, studyId: profile.studyId) else {
                throw DomainError.conflict("study ID already in use: \(profile.studyId) (study IDs are unique across all sites)",
                                           field: "studyId", problem: .alreadyEnrolled(studyId: profile.studyId))
            }
            let id = try PatientRepository.insert(db, profile: profile, site: site.id, by: command.actor, at: ms)
            let issued = try Activation.issueCode(db, patientId: id, now: now, ttl: context.configuration.activation.codeTTLSeconds)
            let risk = snapshot.engine.risk.assess(profile)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .patientEnroll, subject: profile.studyId,
                                details: AuditDetails.Enrolled(profile: ModelText.profile(profile), riskScore: risk.riskScore,
                                                               riskClass: risk.riskClass.rawValue, katBPending: risk.katBPending,
                                                               rulesVersion: snapshot.rules.version))
            let record = try PatientRepository.load(db, id: id)!
            try context.outbox?.enqueueBaseline(db, record, snapshot: snapshot, at: ms)
            let window = MonitoringWindow(profile: profile, rules: snapshot.rules.reminders)
            return Enrollment(patient: record, risk: risk, activationCode: issued.code,
                              activationExpiresAt: issued.expiresAt, monitoringEnds: window.last)
        }
    }

    /// A new code; every earlier patient token and code stops working — unless `addDevice`: a
    /// patient who uses both the app and the web check-in gets a further code and keeps the
    /// tokens they have (earlier unused codes are revoked either way; audited as
    /// `activation.add_device`). Refused, writing nothing, for a patient whose tokens have
    /// outlived the monitoring period: that code could never be used (activation would refuse it).
    public func reissueActivation(studyId: String, actor: String, addDevice: Bool = false) throws -> IssuedActivationCode {
        let (now, ms) = context.nowMilliseconds()
        let lifetime = PatientTokenLifetime(configuration: context.configuration, rules: context.rules)
        return try context.write { db in
            let patient = try context.activePatient(db, studyId: studyId, withdrawnMessage: "the patient has withdrawn")
            if let ended = try lifetime.ended(db, patient, now: now) {
                throw DomainError.conflict("the app access of \(patient.studyId) ended on \(ended.lastDay), "
                    + "\(lifetime.daysAfterMonitoring) days after monitoring ended on \(ended.monitoringEnded) "
                    + "(tokens.patientDaysAfterMonitoring); a new activation code could not be used, so none was issued",
                    problem: .accessEnded(lastDay: ended.lastDay))
            }
            let ttl = context.configuration.activation.codeTTLSeconds
            if addDevice {
                let issued = try Activation.issueCode(db, patientId: patient.id, now: now, ttl: ttl)
                try AuditLog.append(db, at: ms, actor: actor, action: .activationAddDevice, subject: patient.studyId,
                                    details: AuditDetails.AddedDevice(expiresAt: iso8601UTC(milliseconds: issued.expiresAt)))
                return issued
            }
            let issued = try Activation.reissue(db, patientId: patient.id, now: now, ttl: ttl)
            try AuditLog.append(db, at: ms, actor: actor, action: .activationReissue, subject: patient.studyId,
                                details: AuditDetails.Reissued(expiresAt: iso8601UTC(milliseconds: issued.expiresAt)))
            return issued
        }
    }

    /// Merges the patch, validates the whole profile, re-evaluates every stored day of the
    /// monitoring window; the audit row keeps before/after.
    public func updateProfile(_ command: UpdateProfile) throws -> PatientSummary {
        let snapshot = context.rules.snapshot
        let (now, ms) = context.nowMilliseconds()
        return try context.write { db in
            let patient = try context.activePatient(db, studyId: command.studyId, withdrawnMessage: "the patient has withdrawn; the profile is closed")
            let profile: PatientProfile
            do throws(FieldError) { profile = try command.patch.applied(to: patient.profile, rules: snapshot.rules) } catch {
                throw DomainError.rejected(error)
            }
            // A form saved without a change (the console sends every field) changes nothing, so
            // it writes nothing: no audit row, no REDCap baseline, no evaluations.
            if profile == patient.profile { return try context.summary(db, patient, snapshot: snapshot, now: now) }
            if profile.surgeryDate != patient.profile.surgeryDate {
                guard try !hasClinicalRecord(db, patient.id) else {
                    throw DomainError.conflict("the surgery date cannot change once the patient has data (days, lab values or alerts)",
                                               field: "surgeryDate", problem: .fixedOnceDataExists(field: "surgeryDate"))
                }
                try checkSurgeryDate(profile, now: now)
            }
            // Stored days and lab values carry local dates of the old zone: in another zone "today"
            // moves, the stored day can become "in the future", and labs keep the old dates.
            if profile.timeZone != patient.profile.timeZone, try hasClinicalRecord(db, patient.id) {
                throw DomainError.conflict("the time zone cannot change once the patient has data (days, lab values or alerts): "
                                           + "they are dated in \(patient.profile.timeZone); record the move in a note instead",
                                           field: "timeZone", problem: .fixedOnceDataExists(field: "timeZone"))
            }
            try checkConsent(profile, previous: patient.profile, now: now)
            try PatientRepository.updateProfile(db, id: patient.id, profile: profile, at: ms)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .patientUpdate, subject: patient.studyId,
                                details: AuditDetails.ProfileChanges(changes: ProfilePatch.changes(from: patient.profile, to: profile)))
            var updated = patient
            updated.profile = profile
            try context.outbox?.enqueueBaseline(db, updated, snapshot: snapshot, at: ms)
            let window = try context.window(db, updated, snapshot.rules)
            let stored = try DayRepository.load(db, patientId: patient.id, from: window.first, to: window.last).map(\.date)
            try context.evaluate(db, updated, dates: stored, cause: .profile, actor: command.actor, snapshot: snapshot, at: ms,
                                 onlyIfChanged: true)
            return try context.summary(db, updated, snapshot: snapshot, now: now)
        }
    }

    /// Monitoring ends; the patient's token stops working.
    public func withdraw(_ command: Withdraw) throws -> PatientSummary {
        let snapshot = context.rules.snapshot
        let (now, ms) = context.nowMilliseconds()
        return try context.write { db in
            let patient = try context.activePatient(db, studyId: command.studyId, withdrawnMessage: "the patient has already withdrawn")
            let today = context.today(patient.profile, now: now)
            if let date = command.date, date > today {
                throw DomainError.invalid("date", "the withdrawal date is in the future", problem: .dateInFuture)
            }
            let date = command.date ?? today
            try PatientRepository.withdraw(db, id: patient.id, date: date, reason: command.reason, at: ms)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .patientWithdraw, subject: patient.studyId,
                                details: AuditDetails.Withdrawn(date: date.description, reason: command.reason))
            let withdrawn = try PatientRepository.load(db, id: patient.id)!
            try context.outbox?.enqueueBaseline(db, withdrawn, snapshot: snapshot, at: ms)
            return try context.summary(db, withdrawn, snapshot: snapshot, now: now)
        }
    }

    /// Consent: with `consentRequired` an enrolment needs `consentVersion` and `consentDate`, and an
    /// update never removes them (a patient enrolled before consent was required keeps the profile
    /// they had). A new or changed consent date (or a new surgery date) is checked: not after
    /// today in the patient's time zone, not more than 60 days after the surgery date.
    func checkConsent(_ profile: PatientProfile, previous: PatientProfile?, now: Double) throws {
        if context.configuration.consentRequired {
            let message = "the study requires consent: give consentVersion and consentDate"
            if profile.consentVersion == nil && (previous == nil || previous?.consentVersion != nil) {
                throw DomainError.invalid("consentVersion", message, problem: .required)
            }
            if profile.consentDate == nil && (previous == nil || previous?.consentDate != nil) {
                throw DomainError.invalid("consentDate", message, problem: .required)
            }
        }
        guard let date = profile.consentDate,
              date != previous?.consentDate || profile.surgeryDate != previous?.surgeryDate else { return }
        if date > context.today(profile, now: now) {
            throw DomainError.invalid("consentDate", "the consent date \(date) is in the future", problem: .dateInFuture)
        }
        let limit = ValueRanges.consentDateMaxDaysAfterSurgery
        if profile.surgeryDate.days(to: date) > limit {
            throw DomainError.invalid("consentDate",
                                      "the consent date \(date) is more than \(limit) days after the surgery date \(profile.surgeryDate)")
        }
    }

    /// Surgery date: not in the future and not more than 60 days ago, in the patient's time zone.
    /// Whether anything is stored under the patient's postoperative days: a day, a lab value,
    /// an evaluation or an alert (a missing-data alert may come before any data). Their POD,
    /// and the REDCap rows keyed by it, would go stale if the surgery date moved.
    private func hasClinicalRecord(_ db: Connection, _ patientId: Int64) throws -> Bool {
        try DayRepository.hasAnyDayOrLab(db, patientId: patientId) || EvaluationRepository.hasAny(db, patientId: patientId)
            || AlertRepository.hasAny(db, patientId: patientId)
    }

    func checkSurgeryDate(_ profile: PatientProfile, now: Double) throws {
        let today = context.today(profile, now: now)
        if profile.surgeryDate > today {
            throw DomainError.invalid("surgeryDate", "the surgery date \(profile.surgeryDate) is in the future", problem: .dateInFuture)
        }
        if profile.surgeryDate.days(to: today) > ValueRanges.surgeryDateMaxDaysAgo {
            throw DomainError.invalid("surgeryDate", "the surgery date is more than \(ValueRanges.surgeryDateMaxDaysAgo) days ago",
                                      problem: .dateBefore(first: today.adding(days: -ValueRanges.surgeryDateMaxDaysAgo).description))
        }
    }
}
