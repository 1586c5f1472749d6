import HTJSON
import HyponaTrackCore
import SQLite

/// A day submission worked out from one consistent read, before it reaches the single writer:
/// the checks, the merge, the audit details and the evaluations of D (and of D+1, D+2 where
/// they change). The writer then only checks that the patient's revision is still the one
/// read (`PatientsSchema.v2`: it moves with every change to the patient, its days, items and
/// labs) and stores the result; if anything changed in between, the plan is made again under
/// the write lock, so the outcome is always what a fully serial submission would have stored.
struct SubmissionPlan: Sendable {
    let patient: PatientRecord
    /// The staff member correcting the day; nil: the patient's own submission.
    let correctedBy: String?
    let date: LocalDate
    let patch: DayPatch
    let after: DailyEntry
    /// The day's changes for its audit row (`DayAudit.changes`), already written as text so the
    /// single writer does not spend its time on it; `apply` adds the evaluations.
    let audit: JSONObjectHead
    /// D's evaluation first (always stored), then the later dates whose result changed.
    let evaluations: [ComputedEvaluation]
    /// D-2 … D+2 as read, D merged (the days the evaluations were computed from).
    let window: [DailyEntry]
    /// D's deleted item ids, if they were read (the patch had items).
    let deletedIds: Set<String>?

    /// Reads and checks everything the submission needs and computes what it will write;
    /// throws, having written nothing, when the submission is refused.
    ///
    /// `cache` and `known` (the patient row from the `PatientCache`, possibly older than the
    /// store): only on a reader's snapshot, never inside the write transaction.
    static func make(_ db: Connection, _ command: SubmitDay, context: StudyContext, snapshot: ActiveRules.Snapshot,
                     now: Double, cache: DayWindowCache? = nil, known: PatientRecord? = nil) throws -> SubmissionPlan {
        let date = command.date, patch = command.patch
        #if DEBUG
        if let known, let stored = try PatientRepository.load(db, id: known.id), stored.revision == known.revision {
            precondition(stored == known, "PatientCache disagrees with the store for patient \(known.id) at revision \(known.revision)")
        }
        #endif
        guard let patient = try known ?? PatientRepository.load(db, id: command.patientId) else { throw DomainError.unauthenticated }
        guard !patient.isWithdrawn else {
            // A patient's token stops working at withdrawal; staff are told why nothing changed.
            if command.correctedBy == nil { throw DomainError.unauthenticated }
            throw DomainError.conflict("the patient is withdrawn", problem: .patientWithdrawn)
        }
        let window = try context.window(db, patient, snapshot.rules, deciding: date)
        guard window.contains(date) else {
            throw DomainError.rejected(.invalid("date", "\(date) is outside the monitoring window \(window.first)–\(window.last)",
                                                problem: .dateOutside(first: window.first.description, last: window.last.description)))
        }
        guard date <= context.today(patient.profile, now: now) else {
            throw DomainError.rejected(.invalid("date", "\(date) is in the future", problem: .dateInFuture))
        }
        if let early = patch.firstItem(timedAfter: now + DayPatch.itemTimeAheadToleranceSeconds) {
            throw DomainError.rejected(.invalid(early.field, "\(early.time) is more than 15 minutes after the server's clock",
                                                problem: .dateInFuture))
        }
        // D-2 … D+2 in one read: D is merged, D and the following days that hold data are
        // evaluated from the same values (rules read the two previous days).
        let hasItems = !(patch.symptoms.isEmpty && patch.reactionTests.isEmpty && patch.tappingTests.isEmpty
                         && patch.desmopressinDoses.isEmpty)
        let read = try readWindow(db, patient, date, deletedIds: hasItems, cache: cache)
        var days = read.days
        let before = days.first { $0.date == date } ?? DailyEntry(date: date)
        let blocked = read.deletedIds ?? []
        let after = patch.apply(to: before, blockedIds: blocked)
        // Refused before anything is written: one patient's runaway app must not grow a day
        // without bound (every later write of that day would slow the single writer down).
        let limit = context.configuration.limits.itemsPerList
        if let list = before.listGrown(to: after, pastLimit: limit) { throw DomainError.limitReached(field: list, limit: limit) }
        days.removeAll { $0.date == date }
        days.append(after)
        let later = days.map(\.date).filter { $0 > date }
        let forDate = try context.evaluations(db, patient, dates: [date], snapshot: snapshot, preloaded: days)
        let changedLater = later.isEmpty ? [] : try context.evaluations(db, patient, dates: later, snapshot: snapshot,
                                                                         onlyIfChanged: true, preloaded: days).filter(\.isNew)
        return SubmissionPlan(patient: patient, correctedBy: command.correctedBy, date: date, patch: patch, after: after,
                              audit: try JSONObjectHead(writing: DayAudit.changes(date: date, before: before, after: after, patch: patch,
                                                                                  reason: command.correctedBy == nil ? nil : command.reason).write),
                              evaluations: forDate + changedLater, window: days, deletedIds: read.deletedIds)
    }

    /// D-2 … D+2 and (when asked for) D's deleted item ids: from `cache` when it holds them at
    /// the patient's revision (a reader's snapshot only), else read — and then kept in `cache`.
    private static func readWindow(_ db: Connection, _ patient: PatientRecord, _ date: LocalDate, deletedIds wanted: Bool,
                                   cache: DayWindowCache?) throws -> (days: [DailyEntry], deletedIds: Set<String>?) {
        func load() throws -> [DailyEntry] {
            try DayRepository.load(db, patientId: patient.id, from: date.adding(days: -2), to: date.adding(days: 2))
        }
        func loadDeleted() throws -> Set<String> { try DayRepository.deletedItemIds(db, patientId: patient.id, date: date) }
        /// Debug builds compare what the cache gave with the store, but only at the store's
        /// revision: the patient may come from the `PatientCache`, older than the store (the
        /// writer then plans again).
        func check(_ days: [DailyEntry], deletedIds: Set<String>?, _ what: @autoclosure () -> String) throws {
            #if DEBUG
            guard try PatientRepository.revision(db, id: patient.id) == patient.revision else { return }
            let stored = try load()
            precondition(days == stored, "\(what()) disagrees with the store for patient \(patient.id) on \(date):\n\(days)\n\(stored)")
            if let deletedIds {
                let storedIds = try loadDeleted()
                precondition(deletedIds == storedIds, "\(what()): deleted ids differ for patient \(patient.id) on \(date)")
            }
            #endif
        }
        let kept = cache?.window(patientId: patient.id, revision: patient.revision)
        if let hit = kept, hit.date == date {
            try check(hit.days, deletedIds: hit.deletedIds, "DayWindowCache")
            if !wanted || hit.deletedIds != nil { return (hit.days, hit.deletedIds) }
            return (hit.days, try loadDeleted())
        }
        let days: [DailyEntry]
        if let near = kept, let shifted = try shifted(near, to: date, db, patient) {
            try check(shifted, deletedIds: nil, "a DayWindowCache window shifted from \(near.date)")
            days = shifted
        } else {
            days = try load()
        }
        let deleted = wanted ? try loadDeleted() : nil
        cache?.store(.init(revision: patient.revision, date: date, days: days, deletedIds: deleted), patientId: patient.id)
        return (days, deleted)
    }

    /// D-2 … D+2 from a window kept at the same revision for a date up to four days away: its
    /// days in the range, and the dates it does not cover read from the store (a patient's
    /// first submission of the next day reads one date instead of five). Nil: too far apart.
    private static func shifted(_ near: DayWindowCache.Window, to date: LocalDate, _ db: Connection,
                                _ patient: PatientRecord) throws -> [DailyEntry]? {
        let from = date.adding(days: -2), to = date.adding(days: 2)
        let knownFrom = near.date.adding(days: -2), knownTo = near.date.adding(days: 2)
        guard knownFrom <= to, from <= knownTo else { return nil }
        var days = near.days.filter { $0.date >= from && $0.date <= to }
        if from < knownFrom {
            days += try DayRepository.load(db, patientId: patient.id, from: from, to: knownFrom.adding(days: -1))
        }
        if knownTo < to {
            days += try DayRepository.load(db, patientId: patient.id, from: knownTo.adding(days: 1), to: to)
        }
        return days.sorted { $0.date < $1.date }
    }

    /// What `cache` may keep once this plan is committed at `revision` (read after its writes,
    /// inside the transaction): the days it read with the merged day in stored order.
    func committedWindow(revision: Int64) -> DayWindowCache.Window? {
        guard let merged = DayRepository.storedOrder(after, patch: patch) else { return nil }
        let days = window.map { $0.date == date ? merged : $0 }.sorted { $0.date < $1.date }
        return DayWindowCache.Window(revision: revision, date: date, days: days, deletedIds: deletedIds)
    }

    /// Whether the data the plan was computed from is still what is stored (under the write lock).
    func isCurrent(_ db: Connection) throws -> Bool {
        try PatientRepository.revision(db, id: patient.id) == patient.revision
    }

    /// Stores the day, the evaluations (with their alerts and REDCap rows) and one audit row
    /// for both: the day's changes and, under `evaluations`, what each evaluation concluded
    /// (the details an `evaluation.record` row holds elsewhere). Inside the write transaction.
    func apply(_ db: Connection, context: StudyContext, snapshot: ActiveRules.Snapshot, at ms: Int64) throws {
        try DayRepository.save(db, patientId: patient.id, day: after, patch: patch, byPatient: correctedBy == nil, at: ms)
        let cause: EvaluationCause = correctedBy == nil ? .submission : .correction
        var recorded = AuditDetails.EvaluationsRecorded(evaluations: [])
        recorded.evaluations.reserveCapacity(evaluations.count)
        for item in evaluations {
            recorded.evaluations.append(try context.recordUnaudited(db, patient, item, cause: cause, snapshot: snapshot, at: ms))
        }
        try AuditLog.append(db, at: ms, actor: correctedBy ?? "patient:\(patient.studyId)",
                            action: correctedBy == nil ? .daySubmit : .dayCorrect, subject: patient.studyId,
                            detailsText: JSONTextEncoder.string(audit, thenWriting: recorded.write))
    }

    func result(_ snapshot: ActiveRules.Snapshot) -> DayResult {
        DayResult(date: date, evaluation: evaluations[0].evaluation, rulesSnapshot: snapshot,
                  morningCheckComplete: after.morningCheckComplete, eveningCheckComplete: after.eveningCheckComplete, siteId: patient.siteId)
    }
}
