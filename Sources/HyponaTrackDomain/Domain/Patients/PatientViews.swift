import HyponaTrackCore

/// One line of `hyponatrack patients`: who, risk, current level, where in monitoring.
public struct PatientSummary: Sendable {
    public var patient: PatientRecord
    public var risk: RiskAssessment
    /// Today's POD in the patient's zone.
    public var pod: Int
    /// The current level: the higher of the latest evaluation and the unresolved alerts (`CurrentLevel`).
    public var current: CurrentLevel?
    public var monitoringActive: Bool
    public var monitoringEnds: LocalDate
    public var openAlerts: Int
    /// The code of the patient's site.
    public var site: String
}

/// A stored day with its POD and latest evaluation.
public struct StoredDay: Sendable {
    public var day: DailyEntry
    public var pod: Int
    public var evaluation: StoredEvaluation?
}

/// `GET /v1/patients/{studyId}`: the summary, the monitoring period and every stored day.
public struct PatientDetail: Sendable {
    public var summary: PatientSummary
    public var monitoringStarts: LocalDate
    public var timeline: [StoredDay]
}
