import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import SQLite

/// `POST /v1/patients/{studyId}/labs`: a staff lab value; nil time means now.
public struct AddLab: Sendable {
    public var studyId: String
    public var sodium: Double
    public var time: Timestamp?
    public var actor: String

    public init(studyId: String, sodium: Double, time: Timestamp? = nil, actor: String) {
        self.studyId = studyId
        self.sodium = sodium
        self.time = time
        self.actor = actor
    }
}

/// `POST /v1/patients/{studyId}/labs/{labId}/deletion`.
public struct DeleteLab: Sendable {
    public var studyId: String
    public var labId: Int64
    public var reason: String
    public var actor: String

    public init(studyId: String, labId: Int64, reason: String, actor: String) {
        self.studyId = studyId
        self.labId = labId
        self.reason = reason
        self.actor = actor
    }
}

/// `POST /v1/patients/{studyId}/days/{date}/{list}/{itemId}/deletion`.
public struct DeleteItem: Sendable {
    public var studyId: String
    public var date: LocalDate
    public var list: ItemKind
    public var itemId: String
    public var reason: String
    public var actor: String

    public init(studyId: String, date: LocalDate, list: ItemKind, itemId: String, reason: String, actor: String) {
        self.studyId = studyId
        self.date = date
        self.list = list
        self.itemId = itemId
        self.reason = reason
        self.actor = actor
    }
}

/// A stored lab value and the evaluation of its day.
public struct LabEntry: Sendable {
    public var labId: Int64
    public var studyId: String
    public var date: LocalDate
    public var time: Timestamp
    public var sodium: Double
    public var evaluation: Evaluation?
}

/// Staff entries and corrections of clinical data: lab values, and deleting wrong lab values or
/// list items. Each is audited with what it changed and re-evaluates the affected days.
public final class CorrectionService: Sendable {
    let context: StudyContext
    /// Told of each lab value stored or deleted: a low sodium is an episode (`OutcomeService`).
    let outcomes: OutcomeService

    init(context: StudyContext, outcomes: OutcomeService) {
        self.context = context
        self.outcomes = outcomes
    }

    /// The lab's date is the local date of its time in the patient's zone; that day and the two
    /// after it (when they hold data) are re-evaluated.
    public func addLab(_ command: AddLab) throws -> LabEntry {
        let snapshot = context.rules.snapshot
        let (now, ms) = context.nowMilliseconds()
        return try context.write { db in
            let patient = try context.activePatient(db, studyId: command.studyId,
                                                    withdrawnMessage: "the patient has withdrawn; no lab value can be added")
            let zone = context.zone(patient.profile)
            let time: Timestamp
            if let t = command.time {
                guard t.epochSeconds <= now + 300 else { throw DomainError.invalid("time", "the lab time is in the future", problem: .dateInFuture) }
                time = t
            } else {
                time = zone.timestamp(atEpochSeconds: (now * 1000).rounded() / 1000)
            }
            return try addLab(db, patient, time: time, sodium: command.sodium, actor: command.actor, snapshot: snapshot, at: ms)
        }
    }

    /// A sodium typed while resolving an alert (docs/product.md, third round, C): stored as a lab
    /// value of the day it was taken (`time`, default now) and evaluated like any lab value, in
    /// the resolving transaction and before the resolve, raising no alert of its own. A problem
    /// with its time names `sodiumTime`.
    func addLabAtResolve(_ db: Connection, patientId: Int64, sodium: Double, time: Timestamp?, actor: String, at ms: Int64) throws {
        let snapshot = context.rules.snapshot
        let now = Double(ms) / 1000
        guard let patient = try PatientRepository.load(db, id: patientId) else { throw StoreCorruption("alert of no patient \(patientId)") }
        if let time, time.epochSeconds > now + 300 {
            throw DomainError.invalid("sodiumTime", "the sodium's time is in the future", problem: .dateInFuture)
        }
        let at = time ?? context.zone(patient.profile).timestamp(atEpochSeconds: (now * 1000).rounded() / 1000)
        // After the monitoring window nothing is evaluated (no lab value is stored there): the
        // sodium stays with the resolved alert (`resolve_sodium`, REDCap alert_resolution_na).
        let date = context.zone(patient.profile).localDate(atEpochSeconds: at.epochSeconds)
        if date > (try context.window(db, patient, snapshot.rules)).last { return }
        do {
            _ = try addLab(db, patient, time: at, sodium: sodium, actor: actor, snapshot: snapshot, at: ms, raisesAlerts: false)
        } catch DomainError.rejected(let e) where e.field == "time" {
            throw DomainError.rejected(FieldError(e.code, field: "sodiumTime", e.message, problem: e.problem))
        }
    }

    /// Stores a lab value at `time` inside the caller's write transaction, audits it and
    /// re-evaluates its day and the two after it (a confirmed lab import comes here too).
    func addLab(_ db: Connection, _ patient: PatientRecord, time: Timestamp, sodium: Double, actor: String,
                snapshot: ActiveRules.Snapshot, at ms: Int64, raisesAlerts: Bool = true) throws -> LabEntry {
        let date = context.zone(patient.profile).localDate(atEpochSeconds: time.epochSeconds)
        guard date >= patient.profile.surgeryDate else {
            throw DomainError.invalid("time", "the lab time is before the surgery date",
                                      problem: .dateBefore(first: patient.profile.surgeryDate.description))
        }
        // After the window nothing is evaluated or watched: a value there would open alerts and
        // page on-call for a patient the study no longer follows.
        let window = try context.window(db, patient, snapshot.rules)
        guard date <= window.last else {
            throw DomainError.invalid("time", "the lab date \(date) is after the monitoring window's last day \(window.last)",
                                      problem: .dateOutside(first: window.first.description, last: window.last.description))
        }
        let limit = context.configuration.limits.itemsPerList
        guard try DayRepository.labCount(db, patientId: patient.id, date: date) < limit else {
            throw DomainError.limitReached(field: "labSodium", limit: limit)
        }
        let labId = try DayRepository.addLab(db, patientId: patient.id, date: date, time: time, sodium: sodium, by: actor, at: ms)
        try AuditLog.append(db, at: ms, actor: actor, action: .labAdd, subject: patient.studyId,
                            details: AuditDetails.LabAdded(labId: labId, date: date.description, time: time.description, sodium: sodium))
        try outcomes.labAdded(db, patient, labId: labId, date: date, sodium: sodium, actor: actor, at: ms)
        let dates = try context.datesAffected(by: date, db, patientId: patient.id)
        let results = try context.evaluate(db, patient, dates: dates, cause: .lab, actor: actor, snapshot: snapshot, at: ms,
                                           raisesAlerts: raisesAlerts)
        return LabEntry(labId: labId, studyId: patient.studyId, date: date, time: time, sodium: sodium, evaluation: results[date])
    }

    /// Kept, marked deleted; returns the date it was on.
    public func deleteLab(_ command: DeleteLab) throws -> LocalDate {
        let snapshot = context.rules.snapshot
        let (_, ms) = context.nowMilliseconds()
        return try context.write { db in
            let patient = try context.activePatient(db, studyId: command.studyId,
                                                    withdrawnMessage: "the patient has withdrawn; their lab values can no longer change")
            return try deleteLab(db, patient, labId: command.labId, reason: command.reason, actor: command.actor,
                                 snapshot: snapshot, at: ms)
        }
    }

    /// Soft-deletes a live lab value inside the caller's write transaction, audits it and
    /// re-evaluates; returns the date it was on.
    func deleteLab(_ db: Connection, _ patient: PatientRecord, labId: Int64, reason: String, actor: String,
                   snapshot: ActiveRules.Snapshot, at ms: Int64) throws -> LocalDate {
        guard let deleted = try DayRepository.deleteLab(db, patientId: patient.id, labId: labId, by: actor, reason: reason, at: ms)
        else { throw DomainError.notFound("no lab value \(labId) for \(patient.studyId)") }
        try AuditLog.append(db, at: ms, actor: actor, action: .labDelete, subject: patient.studyId,
                            details: AuditDetails.LabDeleted(labId: labId, date: deleted.date.description,
                                                              before: .init(sodium: deleted.sodium), reason: reason))
        try outcomes.labDeleted(db, patient, labId: labId, actor: actor, at: ms)
        let dates = try context.datesAffected(by: deleted.date, db, patientId: patient.id)
        try context.evaluate(db, patient, dates: dates, cause: .correction, actor: actor, snapshot: snapshot, at: ms)
        return deleted.date
    }

    /// Removes a wrong list item (kept, marked deleted; a retried submission cannot bring it back).
    public func deleteItem(_ command: DeleteItem) throws {
        let snapshot = context.rules.snapshot
        let (_, ms) = context.nowMilliseconds()
        let date = command.date, list = command.list.rawValue
        try context.write { db in
            let patient = try context.activePatient(db, studyId: command.studyId,
                                                    withdrawnMessage: "the patient has withdrawn; their data can no longer change")
            let before = try DayRepository.load(db, patientId: patient.id, date: date)
            guard try DayRepository.deleteItem(db, kind: command.list, patientId: patient.id, date: date, clientId: command.itemId,
                                               by: command.actor, reason: command.reason, at: ms)
            else { throw DomainError.notFound("no \(list) item \(command.itemId) on \(date)") }
            let removed = ModelText.item(of: before, list: list, id: command.itemId)
            try AuditLog.append(db, at: ms, actor: command.actor, action: .itemDelete, subject: patient.studyId,
                                details: AuditDetails.ItemDeleted(date: date.description, list: list, id: command.itemId,
                                                                  before: removed, reason: command.reason))
            let dates = try context.datesAffected(by: date, db, patientId: patient.id)
            try context.evaluate(db, patient, dates: dates, cause: .correction, actor: command.actor, snapshot: snapshot, at: ms)
        }
    }
}
