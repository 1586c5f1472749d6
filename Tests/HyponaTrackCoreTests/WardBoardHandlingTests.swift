import Testing
@testable import HyponaTrackCore

/// The ward board's handling state, order and "since" (docs/product.md, third round, "Ward
/// board" and "C — wording").
@Suite struct WardBoardHandlingTests {
    func handling(resolved: Bool = false, acknowledged: Bool = false, newData: Bool = false, contacted: Bool = false) -> BoardHandling {
        BoardHandling(resolved: resolved, acknowledged: acknowledged, newDataSinceAcknowledged: newData, contacted: contacted)
    }

    func days(_ levels: [String: Level]) -> [LocalDate: Level] {
        Dictionary(uniqueKeysWithValues: levels.map { (Fixtures.date($0.key), $0.value) })
    }

    @Test func anUnacknowledgedAlertIsNewAndAResolvedOneResolved() {
        #expect(handling() == .new)
        #expect(handling(contacted: true) == .new, "a contact before a worsening does not cover the worsened alert")
        #expect(handling(resolved: true, acknowledged: true, newData: true) == .resolved)
    }

    @Test func aDayJoiningAnAcknowledgedAlertIsNewDataEvenAfterAContact() {
        #expect(handling(acknowledged: true) == .acknowledged)
        #expect(handling(acknowledged: true, contacted: true) == .contacted)
        #expect(handling(acknowledged: true, newData: true, contacted: true) == .newDataSinceAcknowledged)
        #expect(!BoardHandling.newDataSinceAcknowledged.isHandled, "new data since acknowledged sorts as unhandled")
    }

    @Test func withSeveralAlertsTheLeastHandledDecides() {
        #expect(WardBoardRules.handling(of: [.resolved, .contacted, .acknowledged]) == .acknowledged)
        #expect(WardBoardRules.handling(of: [.contacted, .newDataSinceAcknowledged]) == .newDataSinceAcknowledged)
        #expect(WardBoardRules.handling(of: [.acknowledged, .new]) == .new)
        #expect(WardBoardRules.handling(of: []) == nil)
    }

    @Test func unhandledRedThenUnhandledYellowThenHandledRedThenHandledYellowThenGreenThenNoData() {
        let rows: [(Level?, BoardHandling?)] = [(nil, nil), (.green, .resolved), (.yellow, .contacted), (.red, .acknowledged),
                                                (.yellow, .newDataSinceAcknowledged), (.red, .new)]
        let ranks = rows.map { WardBoardRules.rank(level: $0.0, handling: $0.1) }
        #expect(ranks == [5, 4, 3, 2, 1, 0])
        #expect(WardBoardRules.rank(level: .red, handling: .resolved) == 2)
        #expect(WardBoardRules.rank(level: .red, handling: nil) == 0, "a red level with no alert is not handled")
        #expect(WardBoardRules.rank(level: .green, handling: .new) == 4)
    }

    @Test func aResolvedAlertFromAnEarlierEpisodeDoesNotMakeTodaysRedLookHandled() {
        let d = Fixtures.date
        // A yellow of 5 March, resolved that day; today (9 March) is red with no alert open.
        #expect(!WardBoardRules.resolvedAlertHandles(level: .red, runSince: d("2026-03-09"), alertLevel: .yellow,
                                                     alertLastDay: d("2026-03-05"), resolvedOn: d("2026-03-05")))
        #expect(!WardBoardRules.resolvedAlertHandles(level: .red, runSince: d("2026-03-09"), alertLevel: .red,
                                                     alertLastDay: d("2026-03-06"), resolvedOn: d("2026-03-06")),
                "an earlier red episode does not answer for today's either")
        #expect(!WardBoardRules.resolvedAlertHandles(level: .red, runSince: nil, alertLevel: .red,
                                                     alertLastDay: d("2026-03-09"), resolvedOn: d("2026-03-09")), "no run, nothing to answer for")
    }

    @Test func aResolvedAlertOfTheCurrentRunAnswersForIt() {
        let d = Fixtures.date
        #expect(WardBoardRules.resolvedAlertHandles(level: .red, runSince: d("2026-03-08"), alertLevel: .red,
                                                    alertLastDay: d("2026-03-09"), resolvedOn: d("2026-03-09")))
        #expect(WardBoardRules.resolvedAlertHandles(level: .yellow, runSince: d("2026-03-08"), alertLevel: .red,
                                                    alertLastDay: d("2026-03-08"), resolvedOn: d("2026-03-08")),
                "a red resolved in the run answers for the yellow that followed")
        #expect(!WardBoardRules.resolvedAlertHandles(level: .red, runSince: d("2026-03-08"), alertLevel: .yellow,
                                                     alertLastDay: d("2026-03-08"), resolvedOn: d("2026-03-07")),
                "a yellow does not answer for a red")
        #expect(WardBoardRules.resolvedAlertHandles(level: .red, runSince: d("2026-03-09"), alertLevel: .yellow,
                                                    alertLastDay: d("2026-03-05"), resolvedOn: d("2026-03-09")),
                "resolved during the run: the resolver saw its data (a sodium typed at resolve opens no alert)")
    }

    @Test func sinceIsTheUnresolvedAlertsFirstDay() {
        let since = WardBoardRules.since(level: .yellow, alertFirstDay: Fixtures.date("2026-03-04"),
                                         evaluated: days(["2026-03-05": .green, "2026-03-06": .yellow]))
        #expect(since == Fixtures.date("2026-03-04"))
    }

    @Test func withoutAnAlertSinceIsTheFirstDayOfTheRunAtOrAboveTheLevel() {
        let evaluated = days(["2026-03-03": .yellow, "2026-03-04": .green, "2026-03-05": .red, "2026-03-06": .yellow,
                              "2026-03-07": .yellow])
        #expect(WardBoardRules.since(level: .yellow, alertFirstDay: nil, evaluated: evaluated) == Fixtures.date("2026-03-05"))
        #expect(WardBoardRules.since(level: .red, alertFirstDay: nil, evaluated: evaluated) == nil, "the latest day is below red")
    }

    @Test func daysWithoutAnEvaluationDoNotBreakTheRun() {
        let evaluated = days(["2026-03-03": .green, "2026-03-04": .yellow, "2026-03-07": .yellow])
        #expect(WardBoardRules.since(level: .yellow, alertFirstDay: nil, evaluated: evaluated) == Fixtures.date("2026-03-04"))
        #expect(WardBoardRules.since(level: .green, alertFirstDay: nil, evaluated: evaluated) == Fixtures.date("2026-03-03"))
    }
}
