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
