import HTJSON
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
    /// first date to the last (saves reading them again).
    @discardableResult
    func evaluate(_ db: Connection, _ patient: PatientRecord, dates: [LocalDate], cause: EvaluationCause, actor: String,
                  snapshot: ActiveRules.Snapshot, at ms: Int64, onlyIfChanged: Bool = false,
                  preloaded: [DailyEntry]? = nil) throws -> [LocalDate: Evaluation] {
        guard let first = dates.min(), let last = dates.max() else { return [:] }
        let days = try preloaded ?? DayRepository.load(db, patientId: patient.id, from: first.adding(days: -2), to: last)
        let assessment = snapshot.engine.risk.assess(patient.profile)
        var results: [LocalDate: Evaluation] = [:]
        for date in Set(dates).sorted() {
            let e = snapshot.engine.evaluate(profile: patient.profile, days: days, date: date, assessment: assessment)
            results[date] = e
            if onlyIfChanged, let stored = try EvaluationRepository.latest(db, patientId: patient.id, date: date),
               stored.level == e.level, stored.reasons == e.reasons.map(StoredReason.init), stored.rulesVersion == e.rulesVersion,
               stored.riskScore == e.risk.riskScore {
                continue
            }
            let id = try EvaluationRepository.insert(db, patientId: patient.id, e, cause: cause.rawValue, at: ms)
            try AuditLog.append(db, at: ms, actor: actor, action: .evaluationRecord, subject: patient.studyId,
                                details: ["evaluationId": .number(Double(id)), "date": .string(date.description),
                                          "pod": .int(e.pod), "level": .string(e.level.rawValue),
                                          "reasons": .array(e.reasonCodes.map { JSONValue.string($0) }),
                                          "rulesVersion": .string(e.rulesVersion), "cause": .string(cause.rawValue)])
            metrics.evaluationRecorded(level: e.level)
            try alerting?.evaluationRecorded(db, patient, e, at: ms)
            if let outbox {
                try outbox.enqueueDaily(db, patient, day: days.first { $0.date == date } ?? DailyEntry(date: date),
                                        alert: DailyAlert(e, at: ms), snapshot: snapshot, at: ms)
            }
        }
        return results
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
