import Testing
@testable import HyponaTrackCore

/// docs/clinical-rules.md §8. Surgery 2026-03-02 (Berlin, CET): POD 5 is 2026-03-07.
@Suite struct MissingDataTests {
    let detector = MissingDataDetector(rules: Fixtures.rules)
    let zone = ZoneRules(identifier: "Europe/Berlin")!
    let profile = Fixtures.profile()
    var window: MonitoringWindow { MonitoringWindow(profile: profile, rules: Fixtures.rules.reminders) }
    let activated = Fixtures.time("2026-03-03T10:00:00+01:00")

    func checkin(_ day: DailyEntry?, _ date: String, activatedAt: Timestamp? = Fixtures.time("2026-03-03T10:00:00+01:00"),
                 window: MonitoringWindow? = nil) -> MissingDataDetector.Finding? {
        detector.missingCheckin(profile: profile, day: day, date: LocalDate(date)!, window: window ?? self.window,
                                activatedAt: activatedAt, zone: zone)
    }

    @Test func missingCheckinIsYellowWhenNeitherCheckIsCompleteInTheWindow() {
        let f = checkin(Fixtures.day("2026-03-07") { $0.weightMorningKg = 70 }, "2026-03-07")
        #expect(f == .init(kind: .missingCheckin, level: .yellow, date: LocalDate("2026-03-07")!, pod: 5))
    }

    @Test func eitherCompleteCheckPreventsMissingCheckin() {
        let morning = Fixtures.day("2026-03-07") { $0.weightMorningKg = 70; $0.symptoms = [Fixtures.symptoms("2026-03-07")] }
        #expect(checkin(morning, "2026-03-07") == nil)
        let evening = Fixtures.day("2026-03-07") {
            $0.weightEveningKg = 70; $0.symptoms = [Fixtures.symptoms("2026-03-07", slot: .evening, at: "20:00")]
        }
        #expect(checkin(evening, "2026-03-07") == nil)
    }

    @Test func missingCheckinOnlyInsideTheCriticalWindow() {
        #expect(checkin(nil, "2026-03-06") == nil)  // POD 4
        #expect(checkin(nil, "2026-03-11") != nil)  // POD 9
        #expect(checkin(nil, "2026-03-12") == nil)  // POD 10
    }

    @Test func nothingFiresBeforeActivationOrAfterWithdrawal() {
        #expect(checkin(nil, "2026-03-07", activatedAt: nil) == nil)
        #expect(checkin(nil, "2026-03-07", activatedAt: Fixtures.time("2026-03-07T21:30:00+01:00")) == nil)
        #expect(checkin(nil, "2026-03-07", activatedAt: Fixtures.time("2026-03-07T20:59:00+01:00")) != nil)
        let withdrawn = MonitoringWindow(profile: profile, rules: Fixtures.rules.reminders, withdrawalDate: LocalDate("2026-03-07"))
        #expect(checkin(nil, "2026-03-07", window: withdrawn) == nil)
    }

    @Test func missingCheckinIsDueAtTheEveningDeadline() {
        #expect(detector.missingCheckinDue(on: LocalDate("2026-03-07")!, zone: zone).description == "2026-03-07T21:00:00+01:00")
    }

    @Test func noDataForTwoDaysIsRed() {
        let f = detector.noData(profile: profile, days: [], date: LocalDate("2026-03-05")!, window: window, activatedAt: activated)
        #expect(f?.kind == .noData2d && f?.level == .red)
    }

    @Test func anyPatientValueOnEitherDayPreventsNoData() {
        let steps = Fixtures.day("2026-03-04") { $0.steps = 1200 }
        #expect(detector.noData(profile: profile, days: [steps], date: LocalDate("2026-03-05")!, window: window, activatedAt: activated) == nil)
    }

    @Test func staffLabValuesDoNotCountAsPatientData() {
        let lab = Fixtures.day("2026-03-05") { $0.labSodium = [Fixtures.lab("2026-03-05", "09:00", 138)] }
        #expect(detector.noData(profile: profile, days: [lab], date: LocalDate("2026-03-05")!, window: window, activatedAt: activated) != nil)
    }

    @Test func bothDaysMustBeOnOrAfterTheActivationDay() {
        // Activated 2026-03-03: at the end of 03-03 the day before was not yet activated.
        #expect(detector.noData(profile: profile, days: [], date: LocalDate("2026-03-03")!, window: window, activatedAt: activated) == nil)
        #expect(detector.noData(profile: profile, days: [], date: LocalDate("2026-03-04")!, window: window, activatedAt: activated) != nil)
    }

    @Test func bothDaysMustLieInTheMonitoringWindow() {
        let early = Fixtures.time("2026-03-01T10:00:00+01:00")
        // POD 1 is 03-03; at the end of 03-03 the day before (POD 0) is outside the window.
        #expect(detector.noData(profile: profile, days: [], date: LocalDate("2026-03-03")!, window: window, activatedAt: early) == nil)
        #expect(detector.noData(profile: profile, days: [], date: LocalDate("2026-03-17")!, window: window, activatedAt: early) == nil)
    }

    @Test func noDataIsDueAtLocalMidnightAlsoOnADSTDay() {
        #expect(detector.noDataDue(on: LocalDate("2026-03-28")!, zone: zone).description == "2026-03-29T00:00:00+01:00")
        #expect(detector.noDataDue(on: LocalDate("2026-03-29")!, zone: zone).description == "2026-03-30T00:00:00+02:00")
    }
}
