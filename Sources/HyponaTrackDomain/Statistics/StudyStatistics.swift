import HyponaTrackCore

/// The groups the statistics are given for: every patient, and each risk class.
public enum Cohort: String, Sendable, CaseIterable {
    case all, low, medium, high

    init(_ riskClass: RiskClass) {
        switch riskClass {
        case .low: self = .low
        case .medium: self = .medium
        case .high: self = .high
        }
    }
}

/// `GET /v1/statistics` (docs/product.md, "Settled details", "Statistics"): one entry per cohort,
/// over every patient or over one (`studyId`). Values are exact; renderers round them.
public struct StudyStatistics: Sendable, Equatable {
    /// ms since the epoch.
    public var generatedAt: Int64
    /// The patient the figures are restricted to (nil: every patient).
    public var studyId: String?
    /// The silent days that make a `no_data_2d` alert under the rules in force
    /// (`missingData.noData.days`), so the rate of that kind can be labelled with them.
    public var noDataDays: Int
    /// `all`, `low`, `medium`, `high`, in that order.
    public var cohorts: [CohortStatistics]
}

public struct CohortStatistics: Sendable, Equatable {
    public var cohort: Cohort
    public var patients: PatientCounts
    /// Monitored days that have begun: each patient's monitoring window up to today.
    public var patientDays: Int
    /// Done / due tasks over the completed monitored days on or after activation
    /// (docs/clinical-rules.md §6); nil when no task was due yet.
    public var adherence: Double?
    public var tasksDue: Int
    public var tasksDone: Int
    /// The patient-days by the level of their latest evaluation (`none`: not evaluated, no data).
    public var daysByLevel: DayLevelCounts
    public var alertsPer100PatientDays: AlertRates
    /// Minutes from opening to the first acknowledgement, over the alerts acknowledged.
    public var ackMinutes: MinutesSummary
    /// Minutes from opening to resolution, over the alerts resolved.
    public var resolveMinutes: MinutesSummary
    /// Alerts of kind `missing_checkin` or `no_data_2d`.
    public var missingDataAlerts: Int
}

/// Every enrolled patient is in exactly one of active, finished or withdrawn.
public struct PatientCounts: Sendable, Equatable {
    public var enrolled = 0
    /// Not withdrawn and monitoring not over (those whose monitoring has not begun yet too).
    public var active = 0
    /// Not withdrawn and past the last monitored day.
    public var finished = 0
    public var withdrawn = 0
}

public struct DayLevelCounts: Sendable, Equatable {
    public var green = 0, yellow = 0, red = 0, none = 0
}

/// Alerts per 100 patient-days; nil when there are no patient-days.
public struct AlertRates: Sendable, Equatable {
    public var yellow: Double?
    public var red: Double?
    public var evaluation: Double?
    public var missingCheckin: Double?
    public var noData2d: Double?
}

/// Median (an even count averages the middle pair) and 90th percentile (nearest rank) of `n`
/// durations in minutes; nil when `n` is 0.
public struct MinutesSummary: Sendable, Equatable {
    public var median: Double?
    public var p90: Double?
    public var n: Int
}
