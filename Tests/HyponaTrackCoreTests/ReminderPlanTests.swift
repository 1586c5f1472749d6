import HTJSON
import Testing
@testable import HyponaTrackCore

/// docs/clinical-rules.md §7: the day's reminders for each intensity with the shipped `reminders.json`,
/// open-task filtering, the daily cap and the quiet-hours check of the configuration.
/// 2026-03-04 is POD 2 (outside the critical window); POD 7 is inside it.
struct ReminderPlanTests {
    static let morning = ["weight_morning", "symptoms_morning", "urine_sg"]
    static let evening = ["fluid_log", "reaction_test", "tapping_test", "weight_evening", "symptoms_evening"]

    func plan(_ planner: AdaptiveReminderPlanner = PlannerFixtures.planner(), pod: Int = 2, adherence: Double,
              profile: PatientProfile = Fixtures.profile(), done: Set<CareTask> = []) -> ReminderPlan {
        planner.plan(date: Fixtures.date("2026-03-04"), pod: pod, adherence: adherence,
                     tasks: PlannerFixtures.tasks(profile, done: done), zone: PlannerFixtures.berlin)
    }

    // MARK: Intensities

    @Test func minimalSendsTheTwoCheckRemindersWithTheirOpenTasks() {
        let p = plan(adherence: 1.0, done: PlannerFixtures.morningCheck)
        #expect(p.intensity == .minimal)
        #expect(p.summary == ["check@08:00", "check@20:00"])
        #expect(p.of(.check).map(\.tasks) == [["urine_sg"], Self.evening])
    }

    @Test func checkRemindersSplitTasksByDeadline() {
        let p = plan(adherence: 0.7)
        #expect(p.of(.check).map(\.tasks) == [Self.morning, Self.evening])
    }

    @Test func normalAddsAMissedReminderAtEachDeadline() {
        let p = plan(adherence: 0.7)
        #expect(p.intensity == .normal)
        #expect(p.summary == ["check@08:00", "missed@11:00", "check@20:00", "missed@21:00"])
        #expect(p.of(.missed).map(\.tasks) == [Self.morning, Self.evening])
    }

    @Test func elevatedAddsATaskReminderAtEachTasksOwnTime() {
        let p = plan(adherence: 0.5)
        #expect(p.intensity == .elevated)
        #expect(p.summary == ["check@08:00", "task@08:30", "task@10:00", "task@10:15", "missed@11:00",
                              "task@18:00", "check@20:00", "missed@21:00"])
        #expect(p.of(.task).map(\.tasks) == [["urine_sg"], ["reaction_test"], ["tapping_test"], ["fluid_log"]])
    }

    @Test func aPrescribedDesmopressinGetsItsReminderAtNine() {
        let profile = Fixtures.profile { $0.desmopressinPrescribed = true }
        let p = plan(adherence: 0.5, profile: profile)
        #expect(p.of(.task).map(\.time) == ["08:30", "09:00", "10:00", "10:15", "18:00"])
        #expect(p.of(.task)[1].tasks == ["desmopressin"])
        #expect(p.of(.check)[1].tasks == Self.evening + ["desmopressin"])
    }

    @Test func simplifiedModeGetsNoReactionOrTappingReminders() {
        let p = plan(adherence: 0.5, profile: Fixtures.profile { $0.simplifiedMode = true })
        #expect(p.of(.task).map(\.tasks) == [["urine_sg"], ["fluid_log"]])
        #expect(p.reminders.allSatisfy { !$0.tasks.contains(.reactionTest) && !$0.tasks.contains(.tappingTest) })
    }

    @Test func maximalAddsACatchUpAtFifteenListingEveryOpenTask() {
        let p = plan(pod: 7, adherence: 0.5)
        #expect(p.intensity == .maximal)
        #expect(p.reminders.count == 9)
        #expect(p.of(.catchUp).map(\.time) == ["15:00"])
        #expect(p.of(.catchUp)[0].tasks == Self.morning + Self.evening)
        let partly = plan(pod: 7, adherence: 0.5, done: [.weightMorning, .urineSG, .reactionTest])
        #expect(partly.of(.catchUp)[0].tasks
            == ["symptoms_morning", "fluid_log", "tapping_test", "weight_evening", "symptoms_evening"])
    }

    @Test func remindersAreInTimeOrderWithInstantsOnTheLocalDay() {
        let p = plan(pod: 7, adherence: 0.5)
        #expect(p.reminders.map(\.at) == p.reminders.map(\.at).sorted())
        #expect(p.reminders.allSatisfy { $0.at.localDate == Fixtures.date("2026-03-04") })
        #expect(p.reminders.first?.at.description == "2026-03-04T08:00:00+01:00")
        #expect(p.date == Fixtures.date("2026-03-04"))
    }

    // MARK: Only open tasks

    @Test func aReminderWhoseTasksAreAllDoneIsLeftOut() {
        let morningDone: Set<CareTask> = [.weightMorning, .symptomsMorning, .urineSG]
        let p = plan(pod: 7, adherence: 0.5, done: morningDone.union([.reactionTest]))
        #expect(p.summary == ["task@10:15", "catch_up@15:00", "task@18:00", "check@20:00", "missed@21:00"])
    }

    @Test func remindersListOnlyTheOpenTasks() {
        let p = plan(adherence: 0.7, done: [.weightMorning, .fluidLog, .symptomsEvening])
        #expect(p.of(.check).map(\.tasks) == [["symptoms_morning", "urine_sg"],
                                              ["reaction_test", "tapping_test", "weight_evening"]])
        #expect(p.of(.missed).map(\.tasks) == p.of(.check).map(\.tasks))
    }

    @Test func noReminderOnADayWithEveryTaskDone() {
        let all = Set(CareTask.allCases)
        #expect(plan(pod: 7, adherence: 0.1, done: all).reminders.isEmpty)
        #expect(plan(adherence: 1.0, done: all).intensity == .minimal)
    }

    // MARK: Daily cap (maximal, nine reminders uncapped)

    func capped(_ cap: Int) -> ReminderPlan {
        plan(PlannerFixtures.planner { $0.reminders.dailyCap = cap }, pod: 7, adherence: 0.5)
    }

    @Test func theShippedCapOfTenKeepsAFullMaximalDay() {
        let profile = Fixtures.profile { $0.desmopressinPrescribed = true }
        #expect(plan(pod: 7, adherence: 0.5, profile: profile).reminders.count == 10)
    }

    @Test func theCapDropsTheCatchUpFirst() {
        #expect(capped(8).summary == ["check@08:00", "task@08:30", "task@10:00", "task@10:15", "missed@11:00",
                                      "task@18:00", "check@20:00", "missed@21:00"])
    }

    @Test func theCapDropsTaskRemindersLatestFirstAfterTheCatchUp() {
        #expect(capped(7).summary == ["check@08:00", "task@08:30", "task@10:00", "task@10:15", "missed@11:00",
                                      "check@20:00", "missed@21:00"])
        #expect(capped(5).summary == ["check@08:00", "task@08:30", "missed@11:00", "check@20:00", "missed@21:00"])
    }

    @Test func theCapDropsMissedRemindersOnlyAfterEveryTaskReminder() {
        #expect(capped(4).summary == ["check@08:00", "missed@11:00", "check@20:00", "missed@21:00"])
        let three = capped(3)
        #expect(three.of(.missed).count == 1)
        #expect(three.of(.check).count == 2)
        #expect(three.of(.task).isEmpty)
    }

    @Test func checkRemindersAreNeverDroppedEvenBelowTheirCount() {
        for cap in [0, 1, 2] {
            #expect(capped(cap).summary == ["check@08:00", "check@20:00"], "cap \(cap)")
        }
    }

    @Test func remindersLeftOutForDoneTasksDoNotUseTheCap() {
        // Morning tasks done: the six remaining reminders fit a cap of 6 with nothing dropped.
        let p = plan(PlannerFixtures.planner { $0.reminders.dailyCap = 6 }, pod: 7, adherence: 0.5,
                     done: [.weightMorning, .symptomsMorning, .urineSG])
        #expect(p.summary == ["task@10:00", "task@10:15", "catch_up@15:00", "task@18:00", "check@20:00", "missed@21:00"])
    }

    // MARK: Configuration (reminders.json)

    @Test func theShippedRemindersMatchTheSpecDefaults() {
        let r = Fixtures.rules.reminders
        #expect(r.checkTimes.mapValues(\.description) == [.morning: "08:00", .evening: "20:00"])
        #expect(r.deadlines.mapValues(\.description) == [.morning: "11:00", .evening: "21:00"])
        #expect(r.taskTimes.mapValues(\.description) == [.urineSG: "08:30", .reactionTest: "10:00", .tappingTest: "10:15",
                                                          .desmopressin: "09:00", .fluidLog: "18:00"])
        #expect(r.catchUp.description == "15:00")
        #expect(r.quietFrom.description == "22:00" && r.quietTo.description == "07:00")
        #expect(r.dailyCap == 10)
        #expect(r.adherenceDays == 3 && r.lowAdherenceBelow == 0.60 && r.minimalAdherenceAtLeast == 0.80)
        #expect(r.monitoringPODs == 1...14 && r.extendedToPOD == 21 && r.extendWhenAlertFromPOD == 10)
    }

    @Test func quietHoursWrapMidnightAndEndAtTheirEndTime() {
        let r = Fixtures.rules.reminders
        #expect(r.isQuiet(LocalTime("22:00")!) && r.isQuiet(LocalTime("23:59")!) && r.isQuiet(LocalTime("00:00")!))
        #expect(r.isQuiet(LocalTime("06:59")!))
        #expect(!r.isQuiet(LocalTime("07:00")!) && !r.isQuiet(LocalTime("21:59")!))
    }

    @Test func theShippedRemindersAreAccepted() throws {
        #expect(try PlannerFixtures.remindersError { _ in } == nil)
    }

    @Test func aReminderTimeInsideQuietHoursIsRefusedNamingItsKey() throws {
        let cases: [(String, String, String)] = [
            ("checkTimes", "morning", "06:30"), ("checkTimes", "evening", "22:00"),
            ("deadlines", "evening", "23:30"), ("taskTimes", "fluid_log", "02:00"),
        ]
        for (section, key, time) in cases {
            let error = try PlannerFixtures.remindersError { $0.set(section, key, to: .string(time)) }
            #expect(error?.file == "reminders.json")
            #expect(error?.key == "\(section).\(key)")
            #expect(error?.message.contains("quiet") == true)
        }
        let catchUp = try PlannerFixtures.remindersError { $0["catchUp"] = "05:00" }
        #expect(catchUp?.file == "reminders.json")
        #expect(catchUp?.key == "catchUp")
    }

    @Test func aReminderTimeAtTheEndOfQuietHoursIsAccepted() throws {
        #expect(try PlannerFixtures.remindersError { $0.set("checkTimes", "morning", to: "07:00") } == nil)
    }

    @Test func withoutQuietHoursANightTimeIsAccepted() throws {
        let error = try PlannerFixtures.remindersError {
            $0.set("quietHours", "to", to: "22:00")
            $0.set("checkTimes", "morning", to: "02:30")
        }
        #expect(error == nil)
    }

    @Test func movingQuietHoursOverAConfiguredTimeIsRefused() throws {
        let error = try PlannerFixtures.remindersError { $0.set("quietHours", "to", to: "09:00") }
        #expect(error?.key == "checkTimes.morning")   // 08:00 now lies inside 22:00–09:00
        #expect(error?.file == "reminders.json")
    }
}
