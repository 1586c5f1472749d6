import HyponaTrackCore

/// Live rules beside other rules over the same patient-days: a backtest's candidate, or the
/// shadow rules from their start (docs/product.md, third round, O; definitions in
/// docs/clinical-rules.md, "Backtest and shadow rules"). Alert burden is simulated the same way
/// for both sides: every yellow-or-red day is one alert of its level (a finding opens an alert,
/// resolved after a day, so the next day's finding opens another), never read from stored alerts.
public struct RuleComparison: Sendable, Equatable {
    public var liveVersion: String
    public var otherVersion: String
    /// The shadow's start (ms since the epoch): the first evaluation stored under it.
    public var since: Int64?
    /// Patient-days whose stored evaluation was made under the live rules, compared.
    public var daysCompared: Int
    /// Patient-days whose stored evaluation was made under other rules (not compared).
    public var daysUnderOtherRules: Int
    /// `matrix[live][other]`, green/yellow/red = 0/1/2, over the days both evaluated.
    public var matrix: [[Int]]
    /// Days compared that either side did not evaluate (no rule had their data).
    public var daysNotEvaluated: Int
    public var live: SideFigures
    public var other: SideFigures
    /// Every compared day whose level differs, at most `changedDaysListed`, by study ID and date.
    public var changedDays: [ChangedDay]
    /// How many days changed (complete, even where the list stops).
    public var changedDayCount: Int

    public static let changedDaysListed = 1000
}

/// One side's figures over the compared days.
public struct SideFigures: Sendable, Equatable {
    public var yellowAlerts: Int
    public var redAlerts: Int
    public var alertsPer100PatientDays: Double?
    public var episodes: Int
    public var sensitivity: Proportion
    public var redSensitivity: Proportion
    public var medianLeadDays: Double?
    public var positivePredictiveValue: Proportion
}

/// A patient-day whose level the other rules change.
public struct ChangedDay: Sendable, Equatable {
    public var studyId: String
    public var date: LocalDate
    public var pod: Int
    public var live: Level?
    public var other: Level?
    /// The other rules' reason codes for the day.
    public var reasons: [String]
}

/// Builds a `RuleComparison` one patient at a time (a backtest streams a million days through it).
struct RuleComparisonBuilder {
    let lookback: Int
    private(set) var daysCompared = 0
    var daysUnderOtherRules = 0
    private var matrix = [[Int]](repeating: [0, 0, 0], count: 3)
    private var notEvaluated = 0
    private var live = Side(), other = Side()
    private var changed: [ChangedDay] = []
    private var changedCount = 0

    init(lookback: Int) { self.lookback = lookback }

    /// One compared day of a patient.
    struct Day {
        var date: LocalDate
        var pod: Int
        var live: Level?
        var other: Level?
        var otherReasons: [String]
    }

    private struct Side {
        var yellow = 0, red = 0, episodes = 0, warned = 0, warnedRed = 0, matured = 0, followed = 0
        var leads: [Double] = []

        mutating func add(levels: [LocalDate: Level], episodes: [LocalDate], allEpisodes: [LocalDate], today: LocalDate, lookback: Int) {
            for (date, level) in levels where level == .yellow || level == .red {
                if level == .yellow { yellow += 1 } else { red += 1 }
                if OutcomeMath.matured(date, today: today, lookback: lookback) {
                    matured += 1
                    if OutcomeMath.followed(date, episodes: allEpisodes, lookback: lookback) { followed += 1 }
                }
            }
            for e in episodes {
                self.episodes += 1
                if let lead = OutcomeMath.lead(before: e, lookback: lookback, levels: levels, warns: OutcomeMath.yellowOrRed) {
                    warned += 1
                    leads.append(Double(lead))
                }
                if OutcomeMath.lead(before: e, lookback: lookback, levels: levels, warns: OutcomeMath.red) != nil { warnedRed += 1 }
            }
        }

        func figures(days: Int) -> SideFigures {
            SideFigures(yellowAlerts: yellow, redAlerts: red, alertsPer100PatientDays: OutcomeMath.per100(yellow + red, days),
                        episodes: episodes, sensitivity: Proportion(warned, of: episodes), redSensitivity: Proportion(warnedRed, of: episodes),
                        medianLeadDays: OrderStatistics.median(leads), positivePredictiveValue: Proportion(followed, of: matured))
        }
    }

    /// Adds a patient's compared days, the episodes that count (`episodes`: within the dates
    /// compared) and every episode date (an alert may be followed by a later one).
    mutating func add(studyId: String, days: [Day], episodes: [LocalDate], allEpisodes: [LocalDate], today: LocalDate) {
        var liveLevels: [LocalDate: Level] = [:], otherLevels: [LocalDate: Level] = [:]
        for d in days {
            daysCompared += 1
            if let l = d.live { liveLevels[d.date] = l }
            if let o = d.other { otherLevels[d.date] = o }
            if let l = d.live, let o = d.other, let i = Self.index(l), let j = Self.index(o) {
                matrix[i][j] += 1
            } else {
                notEvaluated += 1
            }
            if d.live != d.other {
                changedCount += 1
                if changed.count < RuleComparison.changedDaysListed {
                    changed.append(ChangedDay(studyId: studyId, date: d.date, pod: d.pod, live: d.live, other: d.other,
                                              reasons: d.otherReasons))
                }
            }
        }
        live.add(levels: liveLevels, episodes: episodes, allEpisodes: allEpisodes, today: today, lookback: lookback)
        other.add(levels: otherLevels, episodes: episodes, allEpisodes: allEpisodes, today: today, lookback: lookback)
    }

    func build(liveVersion: String, otherVersion: String, since: Int64? = nil) -> RuleComparison {
        RuleComparison(liveVersion: liveVersion, otherVersion: otherVersion, since: since, daysCompared: daysCompared,
                       daysUnderOtherRules: daysUnderOtherRules, matrix: matrix, daysNotEvaluated: notEvaluated,
                       live: live.figures(days: daysCompared), other: other.figures(days: daysCompared),
                       changedDays: changed, changedDayCount: changedCount)
    }

    static func index(_ level: Level) -> Int? {
        switch level {
        case .green: 0
        case .yellow: 1
        case .red: 2
        case .info: nil
        }
    }
}
