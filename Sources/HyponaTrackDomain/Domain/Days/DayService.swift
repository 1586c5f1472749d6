import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import SQLite

/// `PUT /v1/me/days/{date}`: the patient's measurements for one day, decoded. With
/// `correctedBy`, the same merge made by staff (`PATCH /v1/patients/{studyId}/days/{date}`, a
/// confirmed import): audited as `day.correct` under that actor, evaluated as a correction.
public struct SubmitDay: Sendable {
    public var patientId: Int64
    public var date: LocalDate
    public var patch: DayPatch
    public var correctedBy: String? = nil
    /// Why staff corrected the day, for the audit row (only with `correctedBy`).
    public var reason: String? = nil

    public init(patientId: Int64, date: LocalDate, patch: DayPatch, correctedBy: String? = nil, reason: String? = nil) {
        self.patientId = patientId
        self.date = date
        self.patch = patch
        self.correctedBy = correctedBy
        self.reason = reason
    }
}

/// `PATCH /v1/patients/{studyId}/days/{date}`: a staff correction of a day, with the reason the
/// audit row keeps (docs/product.md, third round, C: required from the console, optional in the API).
public struct CorrectDay: Sendable {
    public var studyId: String
    public var date: LocalDate
    public var patch: DayPatch
    public var reason: String?
    public var actor: String

    public init(studyId: String, date: LocalDate, patch: DayPatch, reason: String? = nil, actor: String) {
        self.studyId = studyId
        self.date = date
        self.patch = patch
        self.reason = reason
        self.actor = actor
    }
}

/// The day's traffic light after a submission.
public struct DayResult: Sendable {
    public var date: LocalDate
    public var evaluation: Evaluation
    public var rulesSnapshot: ActiveRules.Snapshot
    public var morningCheckComplete: Bool
    public var eveningCheckComplete: Bool
    /// The patient's site (its clinic and emergency numbers go into the answer).
    public var siteId: Int64
}

/// `GET /v1/me/days`: a range of dates; nil ends default to surgery date and monitoring end.
public struct DaysQuery: Sendable {
    public var patientId: Int64
    public var from: LocalDate?
    public var to: LocalDate?

    public init(patientId: Int64, from: LocalDate? = nil, to: LocalDate? = nil) {
        self.patientId = patientId
        self.from = from
        self.to = to
    }
}

/// `GET /v1/me/today`: today's tasks and reminder plan from the core planner.
public struct TodayView: Sendable {
    public var date: LocalDate
    public var pod: Int
    public var monitoringActive: Bool
    public var monitoringEnds: LocalDate
    /// Today's latest evaluation.
    public var latest: StoredEvaluation?
    /// What the patient is shown: the higher of today's latest evaluation and any unresolved
    /// alert dated today (a missing-data alert, say), with the codes that explain it.
    public var shown: (level: Level, reasonCodes: [String])?
    public var tasks: [TaskStatus]
    public var adherence: Double
    public var plan: ReminderPlan
    public var rulesSnapshot: ActiveRules.Snapshot
    /// The patient's site (its clinic and emergency numbers go into the answer).
    public var siteId: Int64
}

/// What the patient app does: submit a day, read days back, see today.
public final class DayService: Sendable {
    let context: StudyContext

    init(context: StudyContext) { self.context = context }

    /// Merge, store, evaluate D (and D+1, D+2 when they hold data), all in one transaction;
    /// the caller answers after it returns, i.e. after COMMIT. The work is done on a read
    /// snapshot first (`SubmissionPlan`), so the single writer only checks and stores it.
    public func submit(_ command: SubmitDay) throws -> DayResult {
        let submission = try PreparedSubmission(command, context: context)
        return submission.committed(try context.write(submission.store))
    }

    /// The same without waiting for the commit: `completion` runs on the writer thread right
    /// after the COMMIT (or once the submission is refused) and gets what `submit` would have
    /// returned or thrown, to be turned into the answer later (`committed` is not yet applied:
    /// call `result()`, off the writer thread).
    public func submit(_ command: SubmitDay, completion: @escaping @Sendable (CommittedSubmission) -> Void) {
        let submission: PreparedSubmission
        do {
            submission = try PreparedSubmission(command, context: context)
        } catch {
            return completion(CommittedSubmission(refused: error))
        }
        context.submit(submission.store) { completion(CommittedSubmission(submission, $0)) }
    }

    /// A staff correction: the patient's own submission path (planned on a snapshot, checked
    /// and stored by the writer, the caches refreshed after the COMMIT), audited as the staff
    /// member's change. A withdrawn patient's days no longer change (409).
    public func correct(_ command: CorrectDay) throws -> DayResult {
        let patientId = try context.read { db in
            try context.activePatient(db, studyId: command.studyId, withdrawnMessage: "the patient is withdrawn").id
        }
        return try submit(SubmitDay(patientId: patientId, date: command.date, patch: command.patch, correctedBy: command.actor,
                                    reason: command.reason))
    }

    /// The patient's stored days with their latest evaluations.
    public func days(_ query: DaysQuery) throws -> [StoredDay] {
        let snapshot = context.rules.snapshot
        return try context.read { db in
            guard let patient = try PatientRepository.load(db, id: query.patientId) else { throw DomainError.unauthenticated }
            let window = try context.window(db, patient, snapshot.rules)
            let first = query.from ?? patient.profile.surgeryDate
            let last = query.to ?? max(window.last, patient.profile.surgeryDate)
            guard first <= last else { throw DomainError.invalid("to", "must not be before from") }
            guard first.days(to: last) <= 400 else { throw DomainError.invalid("to", "at most 400 days at once") }
            let evaluations = try EvaluationRepository.latestPerDate(db, patientId: patient.id)
            return try DayRepository.load(db, patientId: patient.id, from: first, to: last).map { day in
                StoredDay(day: day, pod: patient.profile.pod(at: day.date), evaluation: evaluations[day.date])
            }
        }
    }

    public func today(patientId: Int64) throws -> TodayView {
        let snapshot = context.rules.snapshot
        let (now, _) = context.nowMilliseconds()
        return try context.read { db in
            guard let patient = try PatientRepository.load(db, id: patientId) else { throw DomainError.unauthenticated }
            let profile = patient.profile
            let zone = context.zone(profile)
            let date = zone.localDate(atEpochSeconds: now)
            let window = try context.window(db, patient, snapshot.rules)
            let days = try DayRepository.load(db, patientId: patient.id, from: date.adding(days: -snapshot.rules.reminders.adherenceDays), to: date)
            let day = days.first { $0.date == date }
            let tasks = CarePlan.tasks(for: profile, on: day, rules: snapshot.rules.reminders)
            let activation = patient.activatedAt.map { zone.localDate(atEpochSeconds: Double($0) / 1000) }
            let adherence = CarePlan.adherence(profile: profile, days: days, today: date, activationDate: activation,
                                               window: window, rules: snapshot.rules.reminders)
            let active = window.contains(date)
            let plan = snapshot.planner.plan(date: date, pod: profile.pod(at: date), adherence: adherence,
                                             tasks: active ? tasks : [], zone: zone)
            let latest = try EvaluationRepository.latest(db, patientId: patient.id, date: date)
            let alerts = try AlertRepository.holding(db, patientId: patient.id, date: date)
            return TodayView(date: date, pod: profile.pod(at: date), monitoringActive: active, monitoringEnds: window.last,
                             latest: latest, shown: Self.shownLevel(latest, alerts), tasks: tasks,
                             adherence: adherence, plan: plan, rulesSnapshot: snapshot, siteId: patient.siteId)
        }
    }
}

/// A submission planned on a read snapshot (`SubmissionPlan`), with the write job that checks
/// and stores it and what follows its COMMIT. A class: it travels to the writer and back, and
/// copying the plan's arrays there and back cost more than the trip.
final class PreparedSubmission: Sendable {
    let context: StudyContext
    let snapshot: ActiveRules.Snapshot
    let command: SubmitDay
    let planned: SubmissionPlan
    let now: Double
    let ms: Int64

    init(_ command: SubmitDay, context: StudyContext) throws {
        self.context = context
        self.command = command
        snapshot = context.rules.snapshot
        (now, ms) = context.nowMilliseconds()
        let (snapshot, now) = (snapshot, now)
        let known = context.patients.record(id: command.patientId)
        planned = try context.read { db in
            do {
                return try SubmissionPlan.make(db, command, context: context, snapshot: snapshot, now: now,
                                               cache: context.dayWindows, known: known)
            } catch where known != nil {
                // The refusal may rest on the cached patient row, older than the store (a time
                // zone corrected since, say): refuse only what the stored row refuses.
                context.patients.forget(id: command.patientId)
                return try SubmissionPlan.make(db, command, context: context, snapshot: snapshot, now: now,
                                               cache: context.dayWindows)
            }
        }
        // Read on a reader's snapshot, or already kept: committed data either way.
        context.patients.store(planned.patient)
    }

    /// The write job: the plan if it is still current under the write lock, else made again there.
    @Sendable func store(_ db: Connection) throws -> StoredSubmission {
        let plan = try planned.isCurrent(db)
            ? planned : SubmissionPlan.make(db, command, context: context, snapshot: snapshot, now: now)
        try plan.apply(db, context: context, snapshot: snapshot, at: ms)
        return StoredSubmission(plan: plan, revision: try PatientRepository.revision(db, id: plan.patient.id))
    }

    /// After the COMMIT: the patient's next submission for this date starts from these days and
    /// this patient row (which the submission did not change but for its revision).
    func committed(_ stored: StoredSubmission) -> DayResult {
        if let revision = stored.revision {
            var patient = stored.plan.patient
            patient.revision = revision
            context.patients.store(patient)
            if let window = stored.plan.committedWindow(revision: revision) {
                context.dayWindows.store(window, patientId: patient.id)
            }
        }
        return stored.plan.result(snapshot)
    }
}

/// The plan as stored and the patient's revision read after its writes (the day cache's key).
final class StoredSubmission: Sendable {
    let plan: SubmissionPlan
    let revision: Int64?

    init(plan: SubmissionPlan, revision: Int64?) {
        self.plan = plan
        self.revision = revision
    }
}

/// A submission's outcome as the writer reported it after the COMMIT (or its refusal before).
public struct CommittedSubmission: Sendable {
    private let outcome: Result<(PreparedSubmission, StoredSubmission), any Error>

    /// Refused while it was planned: nothing was queued.
    init(refused error: any Error) { outcome = .failure(error) }

    /// Written (or failed) on the writer.
    init(_ submission: PreparedSubmission, _ written: Result<StoredSubmission, any Error>) {
        outcome = written.map { (submission, $0) }
    }

    /// What the blocking `DayService.submit` returns or throws (and the day cache is updated).
    public func result() throws -> DayResult {
        let (submission, stored) = try outcome.get()
        return submission.committed(stored)
    }
}

extension DayService {
    /// The higher of the evaluation and the alerts; on a tie the evaluation explains it. Nil
    /// when neither gives a level (no evaluation yet, or the day is not evaluated).
    static func shownLevel(_ latest: StoredEvaluation?, _ alerts: [Alert]) -> (level: Level, reasonCodes: [String])? {
        CurrentLevel.of(latest, alerts).map { ($0.level, $0.reasonCodes) }
    }
}

/// What a submission changed, for the audit trail: every scalar before and after, and the ids
/// of the items it upserted. Never secrets; only clinical values and ids.
enum DayAudit {
    static func changes(date: LocalDate, before: DailyEntry, after: DailyEntry, patch: DayPatch,
                        reason: String? = nil) -> AuditDetails.DaySubmitted {
        typealias Change = AuditDetails.Change
        let changed = AuditDetails.DayChanges(
            weightMorningKg: Change.of(before.weightMorningKg, after.weightMorningKg),
            weightEveningKg: Change.of(before.weightEveningKg, after.weightEveningKg),
            fluidIntakeMl: Change.of(before.fluidIntakeMl, after.fluidIntakeMl),
            urineSG: Change.of(before.urineSG, after.urineSG),
            vomitingEpisodes: Change.of(before.vomitingEpisodes, after.vomitingEpisodes),
            steps: Change.of(before.steps, after.steps),
            hrvSdnnMs: Change.of(before.hrvSdnnMs, after.hrvSdnnMs),
            sleepMinutes: Change.of(before.sleepMinutes, after.sleepMinutes),
            restingHeartRate: Change.of(before.restingHeartRate, after.restingHeartRate),
            emergencySymptoms: before.emergencySymptoms == after.emergencySymptoms ? nil
                : Change(before: before.emergencySymptoms.sorted(), after: after.emergencySymptoms.sorted()))
        var upserted = AuditDetails.Upserted()
        var replaced: [AuditDetails.ReplacedItem] = []
        func record<T: DayItem>(_ name: String, _ incoming: [T], _ existing: [T], _ text: (T) -> JSONText) -> [String]? {
            guard !incoming.isEmpty else { return nil }
            let position = DayPatch.firstPositions(existing)
            for item in incoming {
                guard let i = position[item.id], existing[i] != item else { continue }
                replaced.append(AuditDetails.ReplacedItem(list: name, id: item.id, before: text(existing[i]), after: text(item)))
            }
            return incoming.map(\.id)
        }
        upserted.symptoms = record("symptoms", patch.symptoms, before.symptoms, ModelText.symptom)
        upserted.reactionTests = record("reactionTests", patch.reactionTests, before.reactionTests, ModelText.reactionTest)
        upserted.tappingTests = record("tappingTests", patch.tappingTests, before.tappingTests, ModelText.tappingTest)
        upserted.desmopressinDoses = record("desmopressinDoses", patch.desmopressinDoses, before.desmopressinDoses,
                                            ModelText.desmopressinDose)
        return AuditDetails.DaySubmitted(date: date.description, changed: changed, upserted: upserted, replaced: replaced,
                                         reason: reason)
    }
}
