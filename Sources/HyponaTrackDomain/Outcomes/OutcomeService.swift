import HyponaTrackCore
import SQLite

/// Outcomes (docs/product.md, third round, O): staff record what happened to a patient
/// (`hyponatrack outcome`, the API, the console's form); a lab sodium below
/// `outcomes.hyponatremiaBelow` records a hyponatremia episode by itself, and deleting that lab
/// value withdraws it. Each is audited, queued for REDCap's `outcome_log` in the same
/// transaction, and durable before it is answered.
public final class OutcomeService: Sendable {
    let context: StudyContext

    /// Lab-derived episodes closer than this to another hyponatremia outcome of the patient (days,
    /// either side) are the same episode (docs/product.md, settled O: labs are back-dated).
    static let episodeDays = 3
    /// Staff may date an outcome this many days before the monitoring window's first day or
    /// after its last.
    static let dateSlackDays = 30

    init(context: StudyContext) { self.context = context }

    public func add(_ command: AddOutcome) throws -> OutcomeRecord {
        let snapshot = context.rules.snapshot
        let ms = epochMilliseconds(context.clock.now())
        return try context.write { db in
            // A withdrawn patient's readmission is still an outcome of the study.
            let patient = try context.patient(db, studyId: command.studyId)
            try checkDate(db, patient, command.date, rules: snapshot.rules)
            let new = OutcomeRepository.New(kind: command.kind, date: command.date, pod: patient.profile.pod(at: command.date),
                                            sodium: command.sodium, note: command.note, source: .staff, labId: nil)
            return try record(db, patient, new, actor: command.actor, at: ms)
        }
    }

    /// Refuses a date outside the patient's monitoring window ±30 days (a form checks it beside
    /// its other fields before anything is stored).
    public func checkDate(studyId: String, date: LocalDate) throws {
        let rules = context.rules.snapshot.rules
        try context.read { db in try checkDate(db, try context.patient(db, studyId: studyId), date, rules: rules) }
    }

    private func checkDate(_ db: Connection, _ patient: PatientRecord, _ date: LocalDate, rules: RuleSet) throws {
        let window = try context.window(db, patient, rules)
        let first = window.first.adding(days: -Self.dateSlackDays), last = window.last.adding(days: Self.dateSlackDays)
        guard date >= first, date <= last else {
            throw DomainError.invalid("date", "the outcome's date \(date) is outside the patient's monitoring "
                                      + "(\(window.first) to \(window.last)) by more than \(Self.dateSlackDays) days",
                                      problem: .dateOutside(first: first.description, last: last.description))
        }
    }

    /// One patient's outcomes, by date.
    public func outcomes(studyId: String) throws -> [OutcomeRecord] {
        try context.read { db in try OutcomeRepository.list(db, patientId: try context.patient(db, studyId: studyId).id) }
    }

    /// A lab value was stored (in the caller's transaction): a sodium strictly below the
    /// threshold on POD ≥ 1 records a lab-derived episode, unless a hyponatremia outcome of the
    /// patient lies within 3 days of its date.
    func labAdded(_ db: Connection, _ patient: PatientRecord, labId: Int64, date: LocalDate, sodium: Double, actor: String,
                  at ms: Int64) throws {
        let pod = patient.profile.pod(at: date)
        guard sodium < context.configuration.outcomes.hyponatremiaBelow, pod >= 1,
              try !OutcomeRepository.hasEpisode(db, patientId: patient.id, near: date, days: Self.episodeDays) else { return }
        let new = OutcomeRepository.New(kind: .hyponatremia, date: date, pod: pod, sodium: sodium, note: nil, source: .lab, labId: labId)
        _ = try record(db, patient, new, actor: actor, at: ms)
    }

    /// A lab value was deleted (in the caller's transaction): its outcome is withdrawn, and a
    /// low lab value nearby that it kept from being an episode of its own now records one.
    func labDeleted(_ db: Connection, _ patient: PatientRecord, labId: Int64, actor: String, at ms: Int64) throws {
        guard let outcome = try OutcomeRepository.ofLab(db, labId: labId) else { return }
        try OutcomeRepository.withdraw(db, id: outcome.id, at: ms)
        try AuditLog.append(db, at: ms, actor: actor, action: .outcomeWithdraw, subject: patient.studyId,
                            details: OutcomeAudit.Withdrawn(outcomeId: outcome.id, labId: labId, date: outcome.date.description))
        try enqueue(db, id: outcome.id, at: ms)
        let near = outcome.date
        for lab in try OutcomeRepository.lowLabsWithoutOutcome(db, patientId: patient.id, from: near.adding(days: -Self.episodeDays),
                                                               to: near.adding(days: Self.episodeDays),
                                                               below: context.configuration.outcomes.hyponatremiaBelow) {
            try labAdded(db, patient, labId: lab.id, date: lab.date, sodium: lab.sodium, actor: lab.enteredBy, at: ms)
        }
    }

    private func record(_ db: Connection, _ patient: PatientRecord, _ new: OutcomeRepository.New, actor: String,
                        at ms: Int64) throws -> OutcomeRecord {
        let id = try OutcomeRepository.insert(db, patientId: patient.id, new, by: actor, at: ms)
        try AuditLog.append(db, at: ms, actor: actor, action: .outcomeRecord, subject: patient.studyId,
                            details: OutcomeAudit.Recorded(outcomeId: id, kind: new.kind.rawValue, date: new.date.description,
                                                           pod: new.pod, sodium: new.sodium, note: new.note,
                                                           source: new.source.rawValue, labId: new.labId))
        try enqueue(db, id: id, at: ms)
        guard let stored = try OutcomeRepository.load(db, id: id) else { throw StoreCorruption("outcome \(id) was not stored") }
        return stored
    }

    private func enqueue(_ db: Connection, id: Int64, at ms: Int64) throws {
        guard let outbox = context.outbox, let outcome = try OutcomeRepository.load(db, id: id) else { return }
        try outbox.enqueueOutcomeLog(db, outcome, at: ms)
    }
}

/// The outcomes' audit payloads, in one place.
enum OutcomeAudit {
    /// `outcome.record`: a staff-recorded or lab-derived outcome.
    struct Recorded: Encodable, Sendable {
        let outcomeId: Int64
        let kind: String
        let date: String
        let pod: Int
        let sodium: Double?
        let note: String?
        let source: String
        let labId: Int64?
    }

    /// `outcome.withdraw`: the lab value it was recorded from was deleted.
    struct Withdrawn: Encodable, Sendable {
        let outcomeId: Int64
        let labId: Int64
        let date: String
    }
}
