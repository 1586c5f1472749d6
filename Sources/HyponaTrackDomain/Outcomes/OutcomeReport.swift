import HyponaTrackCore

/// `GET /v1/outcomes/report[?site=&from=&to=]`: the dates an episode, an alert's first day, a
/// monitored day and a contact must fall within (inclusive; nil: unbounded). The report is over
/// the patients in scope: the member's sites, narrowed to one by `?site=` (the router's scope step).
public struct OutcomeReportQuery: Sendable {
    public var from: LocalDate?
    public var to: LocalDate?
    /// Only the patients this reaches are counted (a site-bound member's sites; docs/product.md, S).
    public var scope: SiteScope

    public init(from: LocalDate? = nil, to: LocalDate? = nil, scope: SiteScope) {
        self.from = from
        self.to = to
        self.scope = scope
    }

    func contains(_ date: LocalDate) -> Bool { (from.map { date >= $0 } ?? true) && (to.map { date <= $0 } ?? true) }
}

/// Does the light work (docs/product.md, third round, O; every figure defined in
/// docs/clinical-rules.md, "Outcomes"). Values are exact; renderers round them.
public struct OutcomeReport: Sendable, Equatable {
    /// ms since the epoch.
    public var generatedAt: Int64
    public var query: OutcomeReportQuery.Dates
    public var lookbackDays: Int
    public var hyponatremiaBelow: Double
    /// The live rules' version.
    public var rulesVersion: String
    /// `all`, `low`, `medium`, `high` (the patient's current risk class), in that order.
    public var cohorts: [OutcomeFigures]
    /// The same cohorts for each site in scope (the patient's current site), by site code.
    public var sites: [SiteOutcomes]
    /// Every episode counted, by study ID and date, with its warnings.
    public var episodes: [EpisodeWarning]
    /// Live beside shadow rules from the shadow's start; nil without shadow rules.
    public var shadow: RuleComparison?
}

extension OutcomeReportQuery {
    public struct Dates: Sendable, Equatable {
        public var from: LocalDate?
        public var to: LocalDate?
    }
    var dates: Dates { Dates(from: from, to: to) }
}

/// One site's figures: its patients' cohorts (`all`, then by risk class), as the report's own.
public struct SiteOutcomes: Sendable, Equatable {
    public var site: String
    public var name: String
    public var cohorts: [OutcomeFigures]
}

/// One cohort's figures.
public struct OutcomeFigures: Sendable, Equatable {
    public var cohort: Cohort
    public var patients: Int
    /// Monitored days that have begun, within the dates asked.
    public var patientDays: Int
    public var episodes: Int
    /// Episodes with a yellow-or-red evaluated day in the lookback, and their lead times.
    public var yellowOrRed: Warnings
    /// The same for red.
    public var red: Warnings
    public var alerts: AlertBurden
    /// Alerts opened per 100 patient-days on each POD (an alert counts on its first day's POD).
    public var alertsByPOD: [PODRate]
    /// Alerts followed by an episode 1…lookback days after their first day, of those at least
    /// lookback days old.
    public var positivePredictiveValue: Proportion
    public var contacts: Int
    public var contactsPer100PatientDays: Double?
    /// Minutes from opening to the first acknowledgement.
    public var ackMinutes: MinutesSummary
}

public struct Warnings: Sendable, Equatable {
    /// Warned episodes of all episodes, with the Wilson interval.
    public var sensitivity: Proportion
    /// The median lead time in days over the warned episodes.
    public var medianLeadDays: Double?
    /// How many warned episodes had each lead time: index 0 is 1 day, the last `lookbackDays`.
    public var leadHistogram: [Int]
}

public struct AlertBurden: Sendable, Equatable {
    public var opened: Int
    public var yellow: Int
    public var red: Int
    public var evaluation: Int
    public var missingCheckin: Int
    public var noData2d: Int
    public var per100: AlertRates
}

public struct PODRate: Sendable, Equatable {
    public var pod: Int
    public var patientDays: Int
    public var alerts: Int
    public var per100: Double?
}

/// One episode and the warnings before it.
public struct EpisodeWarning: Sendable, Equatable {
    public var studyId: String
    /// The patient's current site's code.
    public var site: String
    public var riskClass: RiskClass
    public var date: LocalDate
    public var pod: Int
    public var source: OutcomeSource
    public var firstYellowOrRed: LocalDate?
    public var firstRed: LocalDate?
    public var yellowOrRedLeadDays: Int? { firstYellowOrRed.map { date.daysSinceEpoch - $0.daysSinceEpoch } }
    public var redLeadDays: Int? { firstRed.map { date.daysSinceEpoch - $0.daysSinceEpoch } }
}
