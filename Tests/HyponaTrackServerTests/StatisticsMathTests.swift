import Testing
import HyponaTrackCore
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The statistics arithmetic with hand-computed figures (docs/product.md, "Settled details",
/// "Statistics"; adherence as docs/clinical-rules.md §6).
@Suite struct StatisticsMathTests {
    // MARK: median and p90

    @Test func theMedianOfAnOddCountIsTheMiddleValue() {
        #expect(OrderStatistics.median([7, 1, 3]) == 3)
        #expect(OrderStatistics.median([4]) == 4)
    }

    @Test func theMedianOfAnEvenCountAveragesTheMiddlePair() {
        #expect(OrderStatistics.median([10, 2, 4, 8]) == 6)      // sorted 2 4 8 10 → (4 + 8) / 2
        #expect(OrderStatistics.median([1.5, 2.0]) == 1.75)
        #expect(OrderStatistics.median([]) == nil)
    }

    @Test func p90IsTheNearestRankNeverInterpolated() {
        let ten: [Double] = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
        #expect(OrderStatistics.nearestRank(90, ten) == 9)        // ⌈0.9 · 10⌉ = 9th of 1…10
        let twenty = (1...20).map(Double.init)
        #expect(OrderStatistics.nearestRank(90, twenty) == 18)    // ⌈18⌉
        let eleven = (1...11).map(Double.init)
        #expect(OrderStatistics.nearestRank(90, eleven) == 10)    // ⌈9.9⌉ = 10
        #expect(OrderStatistics.nearestRank(90, [5, 1, 3]) == 5)  // ⌈2.7⌉ = 3rd
        #expect(OrderStatistics.nearestRank(90, [42]) == 42)
        #expect(OrderStatistics.nearestRank(90, []) == nil)
    }

    // MARK: one patient's facts

    static let rules = MapperFixture.shipped
    static func d(_ s: String) -> LocalDate { LocalDate(s)! }
    static func t(_ s: String) -> Timestamp { Timestamp(s)! }

    /// Surgery 2026-03-02 (Berlin): monitoring POD 1–14 = 03-03 … 03-16.
    static func profile(simplified: Bool = false) -> PatientProfile {
        PatientProfile(studyId: "ST-1", surgeryDate: d("2026-03-02"), timeZone: "Europe/Berlin", age: 50, sex: .female, bmi: 24,
                       baselineWeightKg: 70, histology: "microadenoma", simplifiedMode: simplified)
    }

    static func symptoms(_ date: String, _ slot: SymptomEntry.Slot, id: String) -> SymptomEntry {
        SymptomEntry(id: id, time: t("\(date)T\(slot == .morning ? "08" : "20"):00:00+01:00"), slot: slot, nausea: 0, headache: 0,
                     fatigue: 0, confusion: 0, muscleCramps: 0, vas: 9)
    }

    /// 03-04 has data but lies before activation (03-05); 03-05 three tasks done; 03-06 every
    /// task; 03-07 nothing; 03-08 is today (not yet over).
    static var days: [DailyEntry] {
        var before = DailyEntry(date: d("2026-03-04")); before.weightMorningKg = 70
        var three = DailyEntry(date: d("2026-03-05"))
        three.weightMorningKg = 70.2; three.urineSG = 1.012; three.symptoms = [symptoms("2026-03-05", .morning, id: "m")]
        var all = DailyEntry(date: d("2026-03-06"))
        all.weightMorningKg = 70.1; all.weightEveningKg = 70.4; all.urineSG = 1.010; all.fluidIntakeMl = 1200
        all.symptoms = [symptoms("2026-03-06", .morning, id: "m"), symptoms("2026-03-06", .evening, id: "e")]
        all.reactionTests = [ReactionTest(id: "r", time: t("2026-03-06T10:00:00+01:00"), medianMs: 600, meanMs: 610, errors: 0)]
        all.tappingTests = [TappingTest(id: "p", time: t("2026-03-06T10:15:00+01:00"), taps: 60, durationSeconds: 10)]
        var today = DailyEntry(date: d("2026-03-08")); today.weightMorningKg = 70
        return [before, three, all, today]
    }

    static let levels: [LocalDate: Level] = [d("2026-03-04"): .green, d("2026-03-05"): .yellow, d("2026-03-06"): .red,
                                             d("2026-03-08"): .green]

    static func facts(simplified: Bool = false, today: String = "2026-03-08", activation: String? = "2026-03-05",
                      withdrawn: Bool = false) -> PatientFacts {
        let p = profile(simplified: simplified)
        return PatientFacts.facts(profile: p, riskClass: .low, withdrawn: withdrawn, window: MonitoringWindow(profile: p, rules: rules.reminders),
                                  today: d(today), activation: activation.map(d), days: days, levels: levels, alerts: [])
    }

    @Test func adherenceCountsDueTasksOfCompletedMonitoredDaysFromActivation() {
        // 03-05, 03-06, 03-07 × 8 scheduled tasks (desmopressin hidden: not prescribed) = 24 due;
        // done 3 + 8 + 0 = 11. 03-04 (before activation) and 03-08 (today) do not count.
        let f = Self.facts()
        #expect(f.tasksDue == 24 && f.tasksDone == 11)
        // Simplified mode hides the reaction and tapping tests: 3 × 6 = 18 due, 3 + 6 + 0 = 9 done.
        let s = Self.facts(simplified: true)
        #expect(s.tasksDue == 18 && s.tasksDone == 9)
        #expect(Self.facts(activation: nil).tasksDue == 0, "never activated: nothing was due")
    }

    @Test func patientDaysRunFromTheWindowStartThroughTodayWithTheirLevels() {
        let f = Self.facts()
        #expect(f.dayLevels == [nil, .green, .yellow, .red, nil, .green])   // 03-03 … 03-08
        #expect(f.standing == .active && f.cohort == .low)
        let after = Self.facts(today: "2026-03-20")
        #expect(after.dayLevels.count == 14, "the whole window, 03-03 … 03-16")
        #expect(after.standing == .finished)
        #expect(after.tasksDue == 12 * 8, "03-05 … 03-16")
        #expect(Self.facts(withdrawn: true).standing == .withdrawn)
        #expect(Self.facts(today: "2026-03-02").dayLevels.isEmpty, "monitoring has not begun")
    }

    // MARK: a cohort

    static let minute: Int64 = 60_000

    static func alert(_ kind: AlertKind, _ level: Level, ackAfter: Int64?, resolveAfter: Int64?) -> AlertTiming {
        let opened: Int64 = 1_773_043_200_000
        return AlertTiming(patientId: 1, kind: kind, level: level, openedAt: opened,
                           firstAcknowledgedAt: ackAfter.map { opened + $0 * minute }, resolvedAt: resolveAfter.map { opened + $0 * minute })
    }

    static func patient(_ cohort: Cohort, _ standing: PatientStanding, days: [Level?], due: Int, done: Int,
                        alerts: [AlertTiming] = []) -> PatientFacts {
        PatientFacts(cohort: cohort, standing: standing, dayLevels: days, tasksDue: due, tasksDone: done, alerts: alerts)
    }

    /// Three patients, 8 patient-days, five alerts.
    static let cohort = [
        patient(.low, .active, days: [.green, .green, .yellow, nil], due: 24, done: 18,
                alerts: [alert(.evaluation, .yellow, ackAfter: 4, resolveAfter: 30),
                         alert(.evaluation, .red, ackAfter: 10, resolveAfter: nil),
                         alert(.missingCheckin, .yellow, ackAfter: nil, resolveAfter: 90)]),
        patient(.high, .finished, days: [.red, nil, .green], due: 16, done: 8,
                alerts: [alert(.noData2d, .red, ackAfter: 2, resolveAfter: 20), alert(.evaluation, .red, ackAfter: nil, resolveAfter: nil)]),
        patient(.high, .withdrawn, days: [nil], due: 0, done: 0),
    ]

    @Test func aCohortsFiguresByHand() {
        let all = CohortFigures.statistics(.all, Self.cohort)
        #expect(all.patients == PatientCounts(enrolled: 3, active: 1, finished: 1, withdrawn: 1))
        #expect(all.patientDays == 8)
        #expect(all.daysByLevel == DayLevelCounts(green: 3, yellow: 1, red: 1, none: 3))
        #expect(all.adherence == 26.0 / 40.0)                                  // (18 + 8) / (24 + 16) = 0.65
        // 2 yellow, 3 red, 3 evaluation, 1 missing check-in, 1 no data over 8 patient-days.
        #expect(all.alertsPer100PatientDays == AlertRates(yellow: 25, red: 37.5, evaluation: 37.5, missingCheckin: 12.5, noData2d: 12.5))
        // Acknowledged after 4, 10 and 2 min (two never were: left out): sorted 2 4 10.
        #expect(all.ackMinutes == MinutesSummary(median: 4, p90: 10, n: 3))
        // Resolved after 30, 90 and 20 min (one resolved without acknowledgement still counts): 20 30 90.
        #expect(all.resolveMinutes == MinutesSummary(median: 30, p90: 90, n: 3))
        #expect(all.missingDataAlerts == 2)
    }

    @Test func eachRiskClassIsItsOwnCohortAndAnEmptyOneHasNoRatesOrTimes() {
        let cohorts = CohortFigures.cohorts(Self.cohort)
        #expect(cohorts.map(\.cohort) == [.all, .low, .medium, .high])
        let high = cohorts[3]
        #expect(high.patients.enrolled == 2 && high.patientDays == 4)
        #expect(high.adherence == 0.5)                                          // 8 / 16
        #expect(high.alertsPer100PatientDays.red == 50)                       // 2 × 100 / 4
        #expect(high.ackMinutes == MinutesSummary(median: 2, p90: 2, n: 1))
        let medium = cohorts[2]
        #expect(medium.patients.enrolled == 0 && medium.patientDays == 0)
        #expect(medium.adherence == nil, "nothing was due")
        #expect(medium.alertsPer100PatientDays == AlertRates(), "no patient-days: no rate")
        #expect(medium.ackMinutes == MinutesSummary(median: nil, p90: nil, n: 0))
    }

    @Test func theEvenCountMedianOfTimesAveragesTheMiddlePair() {
        let p = Self.patient(.low, .active, days: [nil], due: 0, done: 0,
                             alerts: [1, 3, 8, 20].map { Self.alert(.evaluation, .yellow, ackAfter: $0, resolveAfter: nil) })
        let s = CohortFigures.statistics(.all, [p])
        #expect(s.ackMinutes == MinutesSummary(median: 5.5, p90: 20, n: 4))   // (3 + 8) / 2; ⌈3.6⌉ = 4th
    }
}
