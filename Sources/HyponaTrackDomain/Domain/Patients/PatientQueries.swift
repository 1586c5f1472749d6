import HyponaTrackCore
import SQLite

/// What staff read about patients: the list and one patient's timeline.
public final class PatientQueries: Sendable {
    let context: StudyContext

    init(context: StudyContext) { self.context = context }

    /// `GET /v1/patients`: the patients `scope` reaches.
    public func list(scope: SiteScope) throws -> [PatientSummary] {
        let snapshot = context.rules.snapshot
        let now = context.clock.now()
        return try context.read { db in
            try PatientRepository.all(db, scope: scope).map { try context.summary(db, $0, snapshot: snapshot, now: now) }
        }
    }

    /// `GET /v1/patients/{studyId}`: profile, risk, activation, and the timeline of days with
    /// their data, lab values and latest evaluations.
    public func show(studyId: String) throws -> PatientDetail {
        let snapshot = context.rules.snapshot
        let now = context.clock.now()
        return try context.read { db in
            let patient = try context.patient(db, studyId: studyId)
            let stored = try context.storedData(db, patient, snapshot.rules)
            return PatientDetail(summary: try context.summary(db, patient, snapshot: snapshot, now: now),
                                 monitoringStarts: stored.window.first,
                                 timeline: stored.days.map { StoredDay(day: $0, pod: patient.profile.pod(at: $0.date),
                                                                       evaluation: stored.evaluations[$0.date]) })
        }
    }
}

/// A patient's monitoring window, stored days and the latest evaluation of each date.
struct PatientStoredData {
    var window: MonitoringWindow
    var days: [DailyEntry]
    var evaluations: [LocalDate: StoredEvaluation]
}

extension StudyContext {
    /// Everything stored about a patient's days: from the surgery date to 30 days past the window.
    func storedData(_ db: Connection, _ patient: PatientRecord, _ rules: RuleSet) throws -> PatientStoredData {
        let window = try window(db, patient, rules)
        let days = try DayRepository.load(db, patientId: patient.id, from: patient.profile.surgeryDate,
                                          to: max(window.last, patient.profile.surgeryDate).adding(days: 30))
        return PatientStoredData(window: window, days: days,
                                 evaluations: try EvaluationRepository.latestPerDate(db, patientId: patient.id))
    }
}

extension StudyContext {
    func summary(_ db: Connection, _ patient: PatientRecord, snapshot: ActiveRules.Snapshot, now: Double) throws -> PatientSummary {
        let window = try window(db, patient, snapshot.rules)
        let today = today(patient.profile, now: now)
        let current = try currentLevel(db, patientId: patient.id)
        return PatientSummary(patient: patient, risk: snapshot.engine.risk.assess(patient.profile),
                              pod: patient.profile.pod(at: today), current: current.level,
                              monitoringActive: window.contains(today), monitoringEnds: window.last,
                              openAlerts: current.openAlerts, site: try SiteRepository.find(db, id: patient.siteId)?.code ?? "")
    }
}
