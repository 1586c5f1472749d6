import Testing
@testable import HyponaTrackCore

/// docs/clinical-rules.md §7: nothing is sent inside quiet hours, and on a day with a clock
/// change every reminder fires once. The rule files refuse a configured time inside quiet
/// hours, but a time just before them can still be moved into them: a spring-forward gap moves
/// 02:30 to 03:30 on the new clock. Europe/Berlin, 2027: spring forward on 03-28
/// (02:00 → 03:00), fall back on 10-31 (03:00 → 02:00).
struct QuietHoursAtClockChangeTests {
    let berlin = PlannerFixtures.berlin

    /// The morning check at `morningCheck`, quiet hours from `quietFrom` to 07:00, the rest as shipped.
    func planner(morningCheck: String, quietFrom: String) -> AdaptiveReminderPlanner {
        PlannerFixtures.planner {
            $0.reminders.checkTimes[.morning] = LocalTime(morningCheck)!
            $0.reminders.quietFrom = LocalTime(quietFrom)!
            $0.reminders.quietTo = LocalTime("07:00")!
        }
    }

    /// A maximal plan (every kind of reminder, nothing done).
    func maximalPlan(_ date: String, _ planner: AdaptiveReminderPlanner) -> ReminderPlan {
        planner.plan(date: Fixtures.date(date), pod: 7, adherence: 0, tasks: PlannerFixtures.tasks(), zone: berlin)
    }

    /// Whether the patient's clock shows a quiet-hour time at the reminder's instant (read from
    /// the instant's text, not with the code under test).
    func landsInQuietHours(_ r: Reminder, _ planner: AdaptiveReminderPlanner) -> Bool {
        planner.rules.isQuiet(LocalTime(String(r.at.description.dropFirst(11).prefix(5)))!)
    }

    @Test(arguments: [("02:30", "03:00"), ("02:15", "02:45")])
    func aTimeBeforeQuietHoursIsAcceptedByTheRuleFiles(morningCheck: String, quietFrom: String) throws {
        #expect(try PlannerFixtures.remindersError {
            $0.set("checkTimes", "morning", to: .string(morningCheck))
            $0["quietHours"] = ["from": .string(quietFrom), "to": "07:00"]
        } == nil)
    }

    @Test(arguments: [("02:30", "03:00"), ("02:15", "02:45")])
    func aReminderTheSpringForwardGapMovesIntoQuietHoursIsNotSent(morningCheck: String, quietFrom: String) {
        let planner = planner(morningCheck: morningCheck, quietFrom: quietFrom)
        let onDay = maximalPlan("2027-03-28", planner)
        for r in onDay.reminders {
            #expect(!landsInQuietHours(r, planner), "\(r.kind.rawValue) planned for \(r.localTime) lands at \(r.at)")
        }
        #expect(!onDay.summary.contains("check@\(morningCheck)"))
        // The rest of the day is untouched, and the day before sends the check at its time.
        #expect(onDay.summary == maximalPlan("2027-03-27", planner).summary.filter { $0 != "check@\(morningCheck)" })
        let before = maximalPlan("2027-03-27", planner).reminders.first
        #expect(before?.kind == .check && before?.at.description == "2027-03-27T\(morningCheck):00+01:00")
    }

    @Test func aGapTimeThatLandsOutsideQuietHoursIsStillMovedForwardByTheGap() {
        let planner = planner(morningCheck: "02:30", quietFrom: "04:00")
        let check = maximalPlan("2027-03-28", planner).reminders.first
        #expect(check?.kind == .check && check?.localTime == LocalTime("02:30")!)
        #expect(check?.at.description == "2027-03-28T03:30:00+02:00")
    }

    @Test func aReminderInTheFallBackRepeatHourIsPlannedOnceAtItsFirstOccurrence() {
        let planner = planner(morningCheck: "02:30", quietFrom: "03:00")
        let plan = maximalPlan("2027-10-31", planner)
        let checks = plan.reminders.filter { $0.kind == .check && $0.localTime == LocalTime("02:30")! }
        #expect(checks.map(\.at.description) == ["2027-10-31T02:30:00+02:00"])
        #expect(checks.first?.at.epochSeconds == Timestamp("2027-10-31T00:30:00Z")!.epochSeconds)
        for r in plan.reminders { #expect(!landsInQuietHours(r, planner), "\(r.kind.rawValue) at \(r.at)") }
        #expect(plan.summary == maximalPlan("2027-10-30", planner).summary)
    }
}
