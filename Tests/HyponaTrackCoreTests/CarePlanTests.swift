import Testing
@testable import HyponaTrackCore

/// docs/clinical-rules.md §6: the daily tasks, when each is done, which are hidden, and 3-day adherence.
struct CarePlanTests {
    let rules = Fixtures.rules.reminders

    func states(_ profile: PatientProfile, _ day: DailyEntry?) -> [CareTask: TaskStatus.State] {
        Dictionary(uniqueKeysWithValues: CarePlan.tasks(for: profile, on: day, rules: rules).map { ($0.task, $0.state) })
    }

    // MARK: Task states

    @Test func everyTaskIsListedOnceWithItsApiName() {
        let names = CarePlan.tasks(for: Fixtures.profile(), on: nil, rules: rules).map(\.task.rawValue)
        #expect(names == ["weight_morning", "symptoms_morning", "urine_sg", "fluid_log", "reaction_test",
                          "tapping_test", "weight_evening", "symptoms_evening", "desmopressin"])
    }

    @Test func morningTasksAreDueAtTheMorningDeadlineAndTheRestInTheEvening() {
        let due = Dictionary(uniqueKeysWithValues: CarePlan.tasks(for: Fixtures.profile(), on: nil, rules: rules)
            .map { ($0.task, $0.due) })
        #expect(due.filter { $0.value == .morning }.keys.sorted() == [.weightMorning, .symptomsMorning, .urineSG])
        #expect(due.filter { $0.value == .evening }.keys.sorted()
            == [.fluidLog, .reactionTest, .tappingTest, .weightEvening, .symptomsEvening, .desmopressin])
    }

    @Test func withoutAnEntryEveryScheduledTaskIsOpen() {
        let s = states(Fixtures.profile { $0.desmopressinPrescribed = true }, nil)
        #expect(s.values.allSatisfy { $0 == .open })
        #expect(states(Fixtures.profile { $0.desmopressinPrescribed = true }, Fixtures.day("2026-03-04"))
            == s)
    }

    @Test(arguments: CareTask.allCases)
    func eachTaskIsDoneByItsOwnDataAndNothingElse(task: CareTask) {
        let profile = Fixtures.profile { $0.desmopressinPrescribed = true }
        let s = states(profile, PlannerFixtures.entry("2026-03-04", done: [task]))
        #expect(s[task] == .done)
        #expect(s.filter { $0.value == .done }.count == 1)
    }

    @Test func anEveningSymptomEntryDoesNotCompleteTheMorningSymptomsTask() {
        let day = Fixtures.day("2026-03-04") { $0.symptoms = [Fixtures.symptoms("2026-03-04", slot: .evening)] }
        let s = states(Fixtures.profile(), day)
        #expect(s[.symptomsMorning] == .open)
        #expect(s[.symptomsEvening] == .done)
    }

    @Test func theEveningWeightDoesNotCompleteTheMorningWeightTask() {
        let s = states(Fixtures.profile(), Fixtures.day("2026-03-04") { $0.weightEveningKg = 70 })
        #expect(s[.weightMorning] == .open)
        #expect(s[.weightEvening] == .done)
    }

    @Test func simplifiedModeHidesTheReactionAndTappingTests() {
        let simplified = Fixtures.profile { $0.simplifiedMode = true }
        let s = states(simplified, PlannerFixtures.fullDay("2026-03-04"))
        #expect(s[.reactionTest] == .hidden)
        #expect(s[.tappingTest] == .hidden)
        #expect(s.filter { $0.value == .hidden }.count == 3)   // + desmopressin, not prescribed
        let standard = states(Fixtures.profile(), nil)
        #expect(standard[.reactionTest] == .open)
        #expect(standard[.tappingTest] == .open)
    }

    @Test func desmopressinIsHiddenUnlessPrescribed() {
        let withDose = PlannerFixtures.entry("2026-03-04", done: [.desmopressin])
        #expect(states(Fixtures.profile(), withDose)[.desmopressin] == .hidden)
        let prescribed = Fixtures.profile { $0.desmopressinPrescribed = true }
        #expect(states(prescribed, nil)[.desmopressin] == .open)
        #expect(states(prescribed, withDose)[.desmopressin] == .done)
    }

    // MARK: Checks

    @Test func morningCheckIsCompleteWithMorningWeightAndMorningSymptomsOnly() {
        #expect(PlannerFixtures.entry("2026-03-04", done: [.weightMorning, .symptomsMorning]).morningCheckComplete)
        #expect(!PlannerFixtures.entry("2026-03-04", done: [.weightMorning, .urineSG]).morningCheckComplete)
        #expect(!PlannerFixtures.entry("2026-03-04", done: [.symptomsMorning]).morningCheckComplete)
        #expect(!PlannerFixtures.entry("2026-03-04", done: [.weightMorning, .symptomsEvening]).morningCheckComplete)
    }

    @Test func eveningCheckIsCompleteWithEveningWeightAndEveningSymptomsOnly() {
        #expect(PlannerFixtures.entry("2026-03-04", done: [.weightEvening, .symptomsEvening]).eveningCheckComplete)
        #expect(!PlannerFixtures.entry("2026-03-04", done: [.weightEvening, .symptomsMorning]).eveningCheckComplete)
        #expect(!PlannerFixtures.entry("2026-03-04", done: [.weightMorning, .symptomsEvening]).eveningCheckComplete)
        #expect(!PlannerFixtures.entry("2026-03-04", done: [.weightEvening]).eveningCheckComplete)
    }

    // MARK: Adherence (today 2026-03-10 = POD 8; the three previous days are 03-07, 03-08, 03-09)

    func adherence(_ days: [DailyEntry], today: String = "2026-03-10", activation: String? = "2026-03-03",
                   profile: PatientProfile = Fixtures.profile(), withdrawal: String? = nil) -> Double {
        let window = MonitoringWindow(profile: profile, rules: rules,
                                      withdrawalDate: withdrawal.map(Fixtures.date))
        return CarePlan.adherence(profile: profile, days: days, today: Fixtures.date(today),
                                  activationDate: activation.map(Fixtures.date), window: window, rules: rules)
    }

    @Test func adherenceIsDoneOverScheduledTasksOfTheThreePreviousDays() {
        let days = ["2026-03-07", "2026-03-08", "2026-03-09"].map(PlannerFixtures.fullDay)
        #expect(adherence(days) == 1.0)
        // 8 scheduled tasks a day (desmopressin hidden): one full day of three = 8 / 24.
        #expect(adherence([PlannerFixtures.fullDay("2026-03-09")]) == 8.0 / 24.0)
        let half = PlannerFixtures.entry("2026-03-08", done: [.weightMorning, .symptomsMorning, .urineSG, .fluidLog])
        #expect(adherence([half]) == 4.0 / 24.0)
    }

    @Test func aPreviousDayWithoutAnEntryCountsAsNothingDone() {
        #expect(adherence([]) == 0.0)
    }

    @Test func adherenceExcludesToday() {
        #expect(adherence([PlannerFixtures.fullDay("2026-03-10")]) == 0.0)
    }

    @Test func adherenceLooksBackThreeDaysOnly() {
        #expect(adherence([PlannerFixtures.fullDay("2026-03-06")]) == 0.0)
    }

    @Test func adherenceCountsOnlyDaysInsideTheMonitoringWindow() {
        // Today POD 2: of the three previous days only POD 1 is monitored (POD 0 and -1 are not).
        #expect(adherence([PlannerFixtures.fullDay("2026-03-03")], today: "2026-03-04") == 1.0)
        let beforeWindow = ["2026-03-01", "2026-03-02"].map(PlannerFixtures.fullDay)
        #expect(adherence(beforeWindow, today: "2026-03-04") == 0.0)
        // After withdrawal on 03-09 the window ends on 03-08, so 03-09 no longer counts.
        let days = [PlannerFixtures.fullDay("2026-03-07"), PlannerFixtures.fullDay("2026-03-08")]
        #expect(adherence(days, withdrawal: "2026-03-09") == 1.0)
    }

    @Test func adherenceCountsOnlyDaysOnOrAfterActivation() {
        let days = [PlannerFixtures.fullDay("2026-03-07"), PlannerFixtures.fullDay("2026-03-08")]
        #expect(adherence(days, activation: "2026-03-09") == 0.0)
        #expect(adherence(days, activation: "2026-03-08") == 0.5)
    }

    @Test func adherenceIsOneWhenNoPreviousDayQualifies() {
        #expect(adherence([], activation: "2026-03-10") == 1.0)            // activated today
        #expect(adherence([], today: "2026-03-03") == 1.0)                  // POD 1: no earlier monitored day
        #expect(adherence([], withdrawal: "2026-03-05") == 1.0)             // window ended before
    }

    @Test func adherenceIsOneBeforeActivation() {
        #expect(adherence([], activation: nil) == 1.0)
    }

    @Test func hiddenTasksDoNotCountForAdherence() {
        let simplified = Fixtures.profile { $0.simplifiedMode = true }
        let sixOfSix = PlannerFixtures.entry("2026-03-09", done: [.weightMorning, .symptomsMorning, .urineSG, .fluidLog,
                                                                  .weightEvening, .symptomsEvening])
        #expect(adherence([sixOfSix], activation: "2026-03-09", profile: simplified) == 1.0)
        #expect(adherence([sixOfSix], activation: "2026-03-09") == 6.0 / 8.0)
    }

    @Test func aPrescribedDesmopressinDoseCountsForAdherence() {
        let prescribed = Fixtures.profile { $0.desmopressinPrescribed = true }
        let noDose = PlannerFixtures.entry("2026-03-09", done: Set(CareTask.allCases).subtracting([.desmopressin]))
        #expect(adherence([noDose], activation: "2026-03-09", profile: prescribed) == 8.0 / 9.0)
        #expect(adherence([PlannerFixtures.fullDay("2026-03-09")], activation: "2026-03-09", profile: prescribed) == 1.0)
    }

    @Test func theLookBackFollowsTheConfiguredNumberOfDays() {
        var r = rules
        r.adherenceDays = 4
        let profile = Fixtures.profile()
        let window = MonitoringWindow(profile: profile, rules: r)
        let a = CarePlan.adherence(profile: profile, days: [PlannerFixtures.fullDay("2026-03-06")],
                                   today: Fixtures.date("2026-03-10"), activationDate: Fixtures.date("2026-03-03"),
                                   window: window, rules: r)
        #expect(a == 0.25)
    }
}
