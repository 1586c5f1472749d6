import HyponaTrackCore
import SQLite

/// What staff read about patients: the list and one patient's timeline.
public final class PatientQueries: Sendable {
    let context: StudyContext

    init(context: StudyContext) { self.context = context }

    /// `GET /v1/patients`.
    public func list() throws -> [PatientSummary] {
        let snapshot = context.rules.snapshot
        let now = context.clock.now()
        return try context.read { db in
            try PatientRepository.all(db).map { try context.summary(db, $0, snapshot: snapshot, now: now) }
        }
    }

    /// `GET /v1/patients/{studyId}`: profile, risk, activation, and the timeline of days with
    /// their data, lab values and latest evaluations.
    public func show(studyId: String) throws -> PatientDetail {
        let snapshot = context.rules.snapshot
        let now = context.clock.now()
        return try context.read { db in
            let patient = try context.patient(db, studyId: studyId)
            let window = try context.window(db, patient, snapshot.rules)
            let evaluations = try EvaluationRepository.latestPerDate(db, patientId: patient.id)
            let days = try DayRepository.load(db, patientId: patient.id, from: patient.profile.surgeryDate,
                                              to: max(window.last, patient.profile.surgeryDate).adding(days: 30))
            return PatientDetail(summary: try context.summary(db, patient, snapshot: snapshot, now: now),
                                 monitoringStarts: window.first,
                                 timeline: days.map { StoredDay(day: $0, pod: patient.profile.pod(at: $0.date),
                                                                evaluation: evaluations[$0.date]) })
        }
    }
}

extension StudyContext {
    func summary(_ db: Connection, _ patient: PatientRecord, snapshot: ActiveRules.Snapshot, now: Double) throws -> PatientSummary {
        let window = try window(db, patient, snapshot.rules)
        let today = today(patient.profile, now: now)
        return PatientSummary(patient: patient, risk: snapshot.engine.risk.assess(patient.profile),
                              pod: patient.profile.pod(at: today),
                              current: try EvaluationRepository.current(db, patientId: patient.id),
                              monitoringActive: window.contains(today), monitoringEnds: window.last,
                              openAlerts: try AlertRepository.openCount(db, patientId: patient.id))
    }
}
