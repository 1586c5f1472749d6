import Testing
@testable import HyponaTrackCore

/// docs/clinical-rules.md §7: "Times are local wall-clock in the patient's time zone. A time that falls into
/// a spring-forward gap moves forward by the gap (02:30 → 03:30); in a fall-back overlap it fires
/// once, at the first occurrence. On days with a DST change each reminder still fires exactly once,
/// at the right local time (its UTC instant shifts by the hour)."
///
/// 2026 transitions: Europe/Berlin 03-29 (02:00 → 03:00) and 10-25 (03:00 → 02:00);
/// America/New_York 03-08 (02:00 → 03:00) and 11-01 (02:00 → 01:00).
struct ZoneRulesTests {
    let berlin = PlannerFixtures.berlin
    let newYork = ZoneRules(identifier: "America/New_York")!

    func utc(_ s: String) -> Double { Timestamp(s)!.epochSeconds }

    func instant(_ zone: ZoneRules, _ date: String, _ time: String) -> Timestamp {
        zone.instant(on: Fixtures.date(date), at: LocalTime(time)!)
    }

    /// A planner without quiet hours whose morning check is at `morningCheck`.
    func nightPlanner(morningCheck: String) -> AdaptiveReminderPlanner {
        PlannerFixtures.planner {
            $0.reminders.quietFrom = LocalTime("00:00")!
            $0.reminders.quietTo = LocalTime("00:00")!
            $0.reminders.checkTimes[.morning] = LocalTime(morningCheck)!
        }
    }

    /// A maximal plan (every kind of reminder, nothing done).
    func maximalPlan(_ date: String, zone: ZoneRules, planner: AdaptiveReminderPlanner = PlannerFixtures.planner())
        -> ReminderPlan {
        planner.plan(date: Fixtures.date(date), pod: 7, adherence: 0, tasks: PlannerFixtures.tasks(), zone: zone)
    }

    /// The wall-clock `HH:MM` of a timestamp in its own offset.
    func wallClock(_ t: Timestamp) -> String { String(t.description.dropFirst(11).prefix(5)) }

    // MARK: Europe/Berlin, spring forward

    @Test func theMorningCheckMovesOneHourEarlierInUtcOnTheSpringForwardDay() {
        let before = maximalPlan("2026-03-28", zone: berlin).reminders[0]
        let onDay = maximalPlan("2026-03-29", zone: berlin).reminders[0]
        #expect(before.kind == .check && onDay.kind == .check)
        #expect(before.at.epochSeconds == utc("2026-03-28T07:00:00Z"))
        #expect(before.at.description == "2026-03-28T08:00:00+01:00")
        #expect(onDay.at.epochSeconds == utc("2026-03-29T06:00:00Z"))
        #expect(onDay.at.description == "2026-03-29T08:00:00+02:00")
    }

    @Test func aTimeInTheSpringForwardGapMovesForwardByTheGap() {
        let t = instant(berlin, "2026-03-29", "02:30")
        #expect(t.epochSeconds == utc("2026-03-29T01:30:00Z"))
        #expect(t.description == "2026-03-29T03:30:00+02:00")
        #expect(instant(berlin, "2026-03-29", "02:00").description == "2026-03-29T03:00:00+02:00")
        #expect(instant(berlin, "2026-03-29", "01:59").description == "2026-03-29T01:59:00+01:00")
        #expect(instant(berlin, "2026-03-29", "03:00").epochSeconds == utc("2026-03-29T01:00:00Z"))
    }

    @Test func aReminderConfiguredInTheGapFiresOnceAtTheShiftedTime() {
        let plan = maximalPlan("2026-03-29", zone: berlin, planner: nightPlanner(morningCheck: "02:30"))
        let checks = plan.reminders.filter { $0.kind == .check && $0.localTime == LocalTime("02:30")! }
        #expect(checks.count == 1)
        #expect(checks.first?.at.epochSeconds == utc("2026-03-29T01:30:00Z"))
        #expect(checks.first?.at.description == "2026-03-29T03:30:00+02:00")
        #expect(plan.reminders.first == checks.first)
    }

    // MARK: Europe/Berlin, fall back

    @Test func theMorningCheckMovesOneHourLaterInUtcOnTheFallBackDay() {
        let before = maximalPlan("2026-10-24", zone: berlin).reminders[0]
        let onDay = maximalPlan("2026-10-25", zone: berlin).reminders[0]
        #expect(before.at.epochSeconds == utc("2026-10-24T06:00:00Z"))
        #expect(before.at.description == "2026-10-24T08:00:00+02:00")
        #expect(onDay.at.epochSeconds == utc("2026-10-25T07:00:00Z"))
        #expect(onDay.at.description == "2026-10-25T08:00:00+01:00")
    }

    @Test func aTimeInTheFallBackOverlapMeansItsFirstOccurrence() {
        let t = instant(berlin, "2026-10-25", "02:30")
        #expect(t.epochSeconds == utc("2026-10-25T00:30:00Z"))
        #expect(t.description == "2026-10-25T02:30:00+02:00")
        #expect(instant(berlin, "2026-10-25", "02:00").epochSeconds == utc("2026-10-25T00:00:00Z"))
        #expect(instant(berlin, "2026-10-25", "03:00").description == "2026-10-25T03:00:00+01:00")
        #expect(instant(berlin, "2026-10-25", "01:59").description == "2026-10-25T01:59:00+02:00")
    }

    @Test func aReminderConfiguredInTheOverlapFiresOnceAtTheFirstOccurrence() {
        let plan = maximalPlan("2026-10-25", zone: berlin, planner: nightPlanner(morningCheck: "02:30"))
        let checks = plan.reminders.filter { $0.kind == .check && $0.localTime == LocalTime("02:30")! }
        #expect(checks.count == 1)
        #expect(checks.first?.at.epochSeconds == utc("2026-10-25T00:30:00Z"))
        #expect(checks.first?.at.description == "2026-10-25T02:30:00+02:00")
    }

    // MARK: Exactly once, at the right local time

    @Test(arguments: ["2026-03-28", "2026-03-29", "2026-03-30", "2026-10-24", "2026-10-25", "2026-10-26"])
    func eachReminderFiresOnceAtItsLocalTimeInBerlin(date: String) {
        let plan = maximalPlan(date, zone: berlin)
        #expect(plan.summary == maximalPlan("2026-03-04", zone: berlin).summary)
        #expect(Set(plan.reminders.map(\.at.epochSeconds)).count == plan.reminders.count)
        for r in plan.reminders {
            #expect(wallClock(r.at) == r.localTime.description)
            #expect(r.at.localDate == Fixtures.date(date))
            #expect(r.at.utcOffsetSeconds == berlin.offset(atEpochSeconds: r.at.epochSeconds))
        }
    }

    @Test(arguments: ["2026-03-07", "2026-03-08", "2026-10-31", "2026-11-01"])
    func eachReminderFiresOnceAtItsLocalTimeInNewYork(date: String) {
        let plan = maximalPlan(date, zone: newYork)
        #expect(plan.reminders.count == 9)
        for r in plan.reminders {
            #expect(wallClock(r.at) == r.localTime.description)
            #expect(r.at.localDate == Fixtures.date(date))
        }
    }

    // MARK: West of UTC: America/New_York

    @Test func newYorkShiftsByAnHourAcrossItsSpringForward() {
        #expect(instant(newYork, "2026-03-07", "08:00").description == "2026-03-07T08:00:00-05:00")
        #expect(instant(newYork, "2026-03-07", "08:00").epochSeconds == utc("2026-03-07T13:00:00Z"))
        #expect(instant(newYork, "2026-03-08", "08:00").description == "2026-03-08T08:00:00-04:00")
        #expect(instant(newYork, "2026-03-08", "08:00").epochSeconds == utc("2026-03-08T12:00:00Z"))
        #expect(instant(newYork, "2026-03-08", "02:30").epochSeconds == utc("2026-03-08T07:30:00Z"))
        #expect(instant(newYork, "2026-03-08", "02:30").description == "2026-03-08T03:30:00-04:00")
    }

    @Test func newYorkShiftsByAnHourAcrossItsFallBack() {
        #expect(instant(newYork, "2026-10-31", "08:00").epochSeconds == utc("2026-10-31T12:00:00Z"))
        #expect(instant(newYork, "2026-11-01", "08:00").epochSeconds == utc("2026-11-01T13:00:00Z"))
        #expect(instant(newYork, "2026-11-01", "08:00").description == "2026-11-01T08:00:00-05:00")
        let overlap = instant(newYork, "2026-11-01", "01:30")
        #expect(overlap.epochSeconds == utc("2026-11-01T05:30:00Z"))
        #expect(overlap.description == "2026-11-01T01:30:00-04:00")
    }

    // MARK: Without DST and with a half-hour shift

    @Test func tokyoHasTheSameOffsetEveryDay() {
        let tokyo = ZoneRules(identifier: "Asia/Tokyo")!
        for date in ["2026-01-15", "2026-03-29", "2026-07-01", "2026-10-25"] {
            let t = instant(tokyo, date, "08:00")
            #expect(t.utcOffsetSeconds == 9 * 3600)
            #expect(t.description == "\(date)T08:00:00+09:00")
        }
        #expect(instant(tokyo, "2026-03-29", "08:00").epochSeconds == utc("2026-03-28T23:00:00Z"))
        #expect(instant(tokyo, "2026-03-29", "02:30").epochSeconds == utc("2026-03-28T17:30:00Z"))
    }

    @Test func aHalfHourSpringForwardMovesAGapTimeByHalfAnHour() {
        // Australia/Lord_Howe goes from +10:30 to +11:00 at 02:00 on 2026-10-04.
        let lordHowe = ZoneRules(identifier: "Australia/Lord_Howe")!
        let t = instant(lordHowe, "2026-10-04", "02:15")
        #expect(t.description == "2026-10-04T02:45:00+11:00")
        #expect(t.epochSeconds == utc("2026-10-03T15:45:00Z"))
        #expect(instant(lordHowe, "2026-10-03", "08:00").epochSeconds == utc("2026-10-02T21:30:00Z"))
    }

    // MARK: Zone lookups

    @Test func anUnknownOrEmptyZoneIdentifierIsRefused() {
        #expect(ZoneRules(identifier: "Europe/Atlantis") == nil)
        #expect(ZoneRules(identifier: "") == nil)
        #expect(ZoneRules(identifier: "Europe/Berlin")?.identifier == "Europe/Berlin")
    }

    @Test func theLocalDateOfAnInstantFollowsTheZonesOffset() {
        #expect(berlin.localDate(atEpochSeconds: utc("2026-03-28T23:30:00Z")) == Fixtures.date("2026-03-29"))
        #expect(berlin.localDate(atEpochSeconds: utc("2026-03-28T22:59:59Z")) == Fixtures.date("2026-03-28"))
        #expect(newYork.localDate(atEpochSeconds: utc("2026-03-09T03:00:00Z")) == Fixtures.date("2026-03-08"))
        #expect(berlin.timestamp(atEpochSeconds: utc("2026-07-01T12:00:00Z")).description == "2026-07-01T14:00:00+02:00")
        #expect(newYork.offset(atEpochSeconds: utc("2026-01-01T12:00:00Z")) == -5 * 3600)
    }

    @Test func midnightAtTheEndOfADayIsTheNextDaysStart() {
        #expect(instant(berlin, "2026-03-28", "24:00") == instant(berlin, "2026-03-29", "00:00"))
        #expect(instant(berlin, "2026-03-28", "24:00").epochSeconds == utc("2026-03-28T23:00:00Z"))
    }
}
