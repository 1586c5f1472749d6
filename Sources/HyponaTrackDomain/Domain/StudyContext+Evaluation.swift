import HyponaTrackCore
import SQLite

/// Why a day was evaluated (stored with the evaluation and in its audit row).
enum EvaluationCause: String, Sendable {
    case submission, lab, correction, profile
}

extension StudyContext {
    /// Evaluates `dates` of a patient, stores each evaluation and its audit row, raises alerts
    /// and queues the REDCap row. With `onlyIfChanged`, a date whose result equals its latest
    /// stored one is skipped. `preloaded` may hold the patient's days from two days before the
    /// first date to the last (saves reading them again). `raisesAlerts` false: the evaluations
    /// are stored, audited and queued, but raise no alert (a sodium a nurse typed while resolving
    /// an alert: her own value never opens or worsens one).
    @discardableResult
    func evaluate(_ db: Connection, _ patient: PatientRecord, dates: [LocalDate], cause: EvaluationCause, actor: String,
                  snapshot: ActiveRules.Snapshot, at ms: Int64, onlyIfChanged: Bool = false,
                  preloaded: [DailyEntry]? = nil, raisesAlerts: Bool = true) throws -> [LocalDate: Evaluation] {
        let computed = try evaluations(db, patient, dates: dates, snapshot: snapshot, onlyIfChanged: onlyIfChanged,
                                       preloaded: preloaded)
        for item in computed where item.isNew {
            try record(db, patient, item, cause: cause, actor: actor, snapshot: snapshot, at: ms, raisesAlerts: raisesAlerts)
        }
        return Dictionary(uniqueKeysWithValues: computed.map { ($0.evaluation.date, $0.evaluation) })
    }

    /// The evaluations of `dates`, in date order, each with its day and whether it differs from
    /// the latest stored one (always true without `onlyIfChanged`). Reads only.
    func evaluations(_ db: Connection, _ patient: PatientRecord, dates: [LocalDate], snapshot: ActiveRules.Snapshot,
                     onlyIfChanged: Bool = false, preloaded: [DailyEntry]? = nil) throws -> [ComputedEvaluation] {
        guard let first = dates.min(), let last = dates.max() else { return [] }
        let days = try preloaded ?? DayRepository.load(db, patientId: patient.id, from: first.adding(days: -2), to: last)
        let assessment = snapshot.engine.risk.assess(patient.profile)
        // Shadow rules see the same days; computed here, so a submission computes them on a
        // reader's snapshot and the single writer only stores the row.
        let shadow = shadow.snapshot
        let shadowAssessment = shadow.map { $0.engine.risk.assess(patient.profile) }
        return try Set(dates).sorted().map { date in
            let e = snapshot.engine.evaluate(profile: patient.profile, days: days, date: date, assessment: assessment)
            var isNew = true
            if onlyIfChanged, let stored = try EvaluationRepository.latest(db, patientId: patient.id, date: date),
               stored.level == e.level, stored.reasons == e.reasons.map(StoredReason.init), stored.rulesVersion == e.rulesVersion,
               stored.riskScore == e.risk.riskScore {
                isNew = false
            }
            var shadowEvaluation: Evaluation?
            if isNew, let shadow, let shadowAssessment {
                shadowEvaluation = shadow.engine.evaluate(profile: patient.profile, days: days, date: date, assessment: shadowAssessment)
            }
            return ComputedEvaluation(evaluation: e, day: days.first { $0.date == date } ?? DailyEntry(date: date), isNew: isNew,
                                      shadow: shadowEvaluation)
        }
    }

    /// Stores one evaluation with its audit row, raises alerts and queues the REDCap row.
    func record(_ db: Connection, _ patient: PatientRecord, _ item: ComputedEvaluation, cause: EvaluationCause, actor: String,
                snapshot: ActiveRules.Snapshot, at ms: Int64, raisesAlerts: Bool = true) throws {
        let details = try recordUnaudited(db, patient, item, cause: cause, snapshot: snapshot, at: ms, raisesAlerts: raisesAlerts)
        try AuditLog.append(db, at: ms, actor: actor, action: .evaluationRecord, subject: patient.studyId, details: details)
    }

    /// `record` without the audit row: for a change whose own audit row carries the returned
    /// details (a day submission's row lists the evaluations it caused, `SubmissionPlan.apply`).
    func recordUnaudited(_ db: Connection, _ patient: PatientRecord, _ item: ComputedEvaluation, cause: EvaluationCause,
                         snapshot: ActiveRules.Snapshot, at ms: Int64, raisesAlerts: Bool = true) throws -> AuditDetails.EvaluationRecorded {
        let e = item.evaluation
        let id = try EvaluationRepository.insert(db, patientId: patient.id, e, cause: cause.rawValue, at: ms)
        // Stored apart, with no alert, hook, patient-visible or REDCap effect.
        if let shadow = item.shadow { try ShadowRepository.insertEvaluation(db, patientId: patient.id, shadow, at: ms) }
        metrics.evaluationRecorded(level: e.level)
        if raisesAlerts { try alerting?.evaluationRecorded(db, patient, e, at: ms) }
        if let outbox {
            try outbox.enqueueDaily(db, patient, day: item.day, alert: DailyAlert(e, at: ms), snapshot: snapshot, at: ms)
        }
        return AuditDetails.EvaluationRecorded(evaluationId: id, date: e.date.description, pod: e.pod, level: e.level?.rawValue,
                                               reasons: e.reasonCodes, rulesVersion: e.rulesVersion, cause: cause.rawValue)
    }

    /// D, and D+1 and D+2 when they hold data (rules read the two previous days).
    func datesAffected(by date: LocalDate, _ db: Connection, patientId: Int64) throws -> [LocalDate] {
        var dates = [date]
        for offset in 1...2 where try DayRepository.hasData(db, patientId: patientId, date: date.adding(days: offset)) {
            dates.append(date.adding(days: offset))
        }
        return dates
    }
}

/// One evaluated date: the result, the day it was computed from, and whether it is worth
/// storing (it differs from the latest stored result).
struct ComputedEvaluation: Sendable {
    var evaluation: Evaluation
    var day: DailyEntry
    var isNew: Bool
    /// The same day under the shadow rules, when they are set (`ShadowRules`).
    var shadow: Evaluation? = nil
}
