import Testing
import HyponaTrackCore
@testable import HyponaTrackDomain

/// The outcome report's arithmetic with hand-computed figures (docs/clinical-rules.md §10):
/// the Wilson interval against published values, the lookback and its lead time, when an alert
/// is followed and old enough to count, and the simulated alerts of a comparison.
@Suite struct OutcomeMathTests {
    let e = LocalDate("2026-03-20")!

    @Test func theWilsonIntervalMatchesPublishedValues() {
        // Newcombe 1998 (Stat Med 17:857), Table I: 81/263 → 0.2553–0.3662; 15/148 → 0.0624–0.1605.
        let a = Proportion(81, of: 263), b = Proportion(15, of: 148)
        #expect(abs(a.low! - 0.2553) < 0.00005 && abs(a.high! - 0.3662) < 0.00005, "\(a)")
        #expect(abs(b.low! - 0.0624) < 0.00005 && abs(b.high! - 0.1605) < 0.00005, "\(b)")
        // 0 of 10 and 10 of 10: the interval touches 0 and 1 without leaving them.
        #expect(Proportion(0, of: 10).low == 0 && abs(Proportion(0, of: 10).high! - 0.2775) < 0.00005)
        #expect(abs(Proportion(10, of: 10).high! - 1) < 1e-12 && abs(Proportion(10, of: 10).low! - 0.7225) < 0.00005)
        #expect(Proportion(0, of: 0).value == nil && Proportion(0, of: 0).low == nil)
    }

    @Test func theLeadTimeIsFromTheFirstWarningDayInTheLookbackNotTheEpisodesOwnDay() {
        let levels: [LocalDate: Level] = [e.adding(days: -8): .red, e.adding(days: -5): .yellow, e.adding(days: -2): .red, e: .red]
        #expect(OutcomeMath.lead(before: e, lookback: 7, levels: levels, warns: OutcomeMath.yellowOrRed) == 5)
        #expect(OutcomeMath.lead(before: e, lookback: 7, levels: levels, warns: OutcomeMath.red) == 2, "day −8 is outside")
        #expect(OutcomeMath.lead(before: e, lookback: 1, levels: levels, warns: OutcomeMath.yellowOrRed) == nil, "E itself is not in it")
        #expect(OutcomeMath.lead(before: e, lookback: 8, levels: levels, warns: OutcomeMath.red) == 8)
    }

    @Test func anAlertIsFollowedByAnEpisodeOneToLookbackDaysAfterItsFirstDayAndCountsOnceOldEnough() {
        let first = e.adding(days: -7)
        #expect(OutcomeMath.followed(first, episodes: [e], lookback: 7))
        #expect(!OutcomeMath.followed(first, episodes: [first], lookback: 7), "the same day is not after it")
        #expect(!OutcomeMath.followed(first, episodes: [e.adding(days: 1)], lookback: 7))
        #expect(OutcomeMath.matured(first, today: e, lookback: 7) && !OutcomeMath.matured(first, today: e.adding(days: -1), lookback: 7))
        #expect(OutcomeMath.histogram([1, 3, 3, 7, 9], lookback: 7) == [1, 0, 2, 0, 0, 0, 1])
    }

    @Test func aComparisonSimulatesOneAlertPerYellowOrRedDayForBothSides() {
        var builder = RuleComparisonBuilder(lookback: 7)
        let days: [RuleComparisonBuilder.Day] = [
            .init(date: e.adding(days: -9), pod: 1, live: .green, other: .yellow, otherReasons: ["symptom_score"]),
            .init(date: e.adding(days: -8), pod: 2, live: .yellow, other: .yellow, otherReasons: ["symptom_score"]),
            .init(date: e.adding(days: -3), pod: 7, live: .green, other: .red, otherReasons: ["confusion"]),
            .init(date: e.adding(days: -2), pod: 8, live: nil, other: nil, otherReasons: []),
        ]
        builder.add(studyId: "X", days: days, episodes: [e], allEpisodes: [e], today: e.adding(days: 1))
        let c = builder.build(liveVersion: "live", otherVersion: "other")
        #expect(c.daysCompared == 4 && c.daysNotEvaluated == 1 && c.changedDayCount == 2)
        #expect(c.matrix == [[0, 1, 1], [0, 1, 0], [0, 0, 0]])
        #expect(c.live.yellowAlerts == 1 && c.live.redAlerts == 0 && c.other.yellowAlerts == 2 && c.other.redAlerts == 1)
        // Live: the yellow on E−8 is outside the lookback; the other rules' red on E−3 warns 3 days ahead.
        #expect(c.live.sensitivity.count == 0 && c.other.sensitivity.count == 1 && c.other.medianLeadDays == 3)
        // Alerts at least 7 days old on E+1: live E−8 (not followed: 8 days before E); other E−9, E−8 (neither).
        #expect(c.live.positivePredictiveValue.total == 1 && c.live.positivePredictiveValue.count == 0)
        #expect(c.other.positivePredictiveValue.total == 2 && c.other.positivePredictiveValue.count == 0)
        #expect(c.changedDays.map(\.date) == [e.adding(days: -9), e.adding(days: -3)])
    }
}
