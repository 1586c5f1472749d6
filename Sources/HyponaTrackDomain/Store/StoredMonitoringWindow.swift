import HyponaTrackCore
import SQLite

extension MonitoringWindow {
    /// A stored patient's window under `rules`: extended by what their evaluations and alerts
    /// hold (`EvaluationRepository.alertPODs`), ended early by their withdrawal. The one place
    /// the server builds the full window; callers that only need to know whether a date is
    /// inside try the shortest window first (no read).
    static func stored(_ db: Connection, _ patient: PatientRecord, rules: ReminderRules) throws -> MonitoringWindow {
        MonitoringWindow(profile: patient.profile, rules: rules,
                         alertPODs: try EvaluationRepository.alertPODs(db, patient: patient, rules: rules),
                         withdrawalDate: patient.withdrawalDate)
    }
}

extension MonitoringWindow {
    /// For each patient, a window that answers `contains` for its date as
    /// `StudyContext.window(_:_:_:deciding:)` does: the window without its extension when that
    /// holds the date, else the full one — the evaluations and alerts of every patient who
    /// needs the full one read in one query (the ward board, for everyone at once).
    static func stored(_ db: Connection, deciding patients: [(patient: PatientRecord, deciding: LocalDate)],
                       rules: ReminderRules) throws -> [MonitoringWindow] {
        let shortest = patients.map { MonitoringWindow(profile: $0.patient.profile, rules: rules, withdrawalDate: $0.patient.withdrawalDate) }
        let full = zip(patients, shortest).filter { !$1.contains($0.deciding) }.map(\.0.patient)
        let alertPODs = try EvaluationRepository.alertPODs(db, patients: full, rules: rules)
        return zip(patients, shortest).map { asked, shortest in
            shortest.contains(asked.deciding) ? shortest
                : MonitoringWindow(profile: asked.patient.profile, rules: rules, alertPODs: alertPODs[asked.patient.id] ?? [],
                                   withdrawalDate: asked.patient.withdrawalDate)
        }
    }
}
