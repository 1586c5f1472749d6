import Testing
@testable import HyponaTrackCore

/// docs/clinical-rules.md §7's intensity table:
///
///     critical = POD in the critical window (5–9)
///     if a < 0.60:            intensity = critical ? maximal : elevated
///     else if critical:       intensity = elevated
///     else if a >= 0.80 and morningCheckComplete: intensity = minimal
///     else:                   intensity = normal
struct ReminderIntensityTests {
    let planner = PlannerFixtures.planner()

    func intensity(_ a: Double, pod: Int, morning: Bool = true) -> ReminderIntensity {
        planner.intensity(adherence: a, pod: pod, morningCheckComplete: morning)
    }

    // MARK: Low adherence

    @Test func maximalInsideWindowWhenAdherenceBelowSixtyPercent() {
        for pod in 5...9 {
            #expect(intensity(0.5999, pod: pod) == .maximal, "POD \(pod)")
            #expect(intensity(0, pod: pod, morning: false) == .maximal, "POD \(pod)")
        }
    }

    @Test func elevatedOutsideWindowWhenAdherenceBelowSixtyPercent() {
        for pod in [1, 4, 10, 14, 21] {
            #expect(intensity(0.5999, pod: pod) == .elevated, "POD \(pod)")
            #expect(intensity(0, pod: pod, morning: false) == .elevated, "POD \(pod)")
        }
    }

    @Test func adherenceOfExactlySixtyPercentIsNotLow() {
        #expect(intensity(0.60, pod: 7) == .elevated)
        #expect(intensity(0.60, pod: 3, morning: false) == .normal)
        #expect(intensity(0.60, pod: 3, morning: true) == .normal)
    }

    @Test func sixtyPercentComputedFromTaskCountsIsNotLow() {
        // 3 / 5 (as adherence computes it) is the same binary value as the configured 0.60.
        #expect(intensity(3.0 / 5.0, pod: 7) == .elevated)
        #expect(intensity(12.0 / 20.0, pod: 2) == .normal)
    }

    // MARK: Critical window

    @Test func atLeastElevatedInsideWindowWhateverTheAdherence() {
        for pod in 5...9 {
            #expect(intensity(1.0, pod: pod, morning: true) == .elevated, "POD \(pod)")
            #expect(intensity(0.80, pod: pod, morning: false) == .elevated, "POD \(pod)")
            #expect(intensity(0.60, pod: pod, morning: false) == .elevated, "POD \(pod)")
        }
    }

    @Test func criticalWindowIsPodFiveToNineInclusive() {
        #expect(intensity(1.0, pod: 4) == .minimal)
        #expect(intensity(1.0, pod: 5) == .elevated)
        #expect(intensity(1.0, pod: 9) == .elevated)
        #expect(intensity(1.0, pod: 10) == .minimal)
        #expect(intensity(0.5, pod: 4) == .elevated)
        #expect(intensity(0.5, pod: 5) == .maximal)
        #expect(intensity(0.5, pod: 9) == .maximal)
        #expect(intensity(0.5, pod: 10) == .elevated)
    }

    // MARK: Outside the window, adherence at least 0.60

    @Test func minimalAtEightyPercentWithTheMorningCheckComplete() {
        #expect(intensity(0.80, pod: 3, morning: true) == .minimal)
        #expect(intensity(1.0, pod: 12, morning: true) == .minimal)
        #expect(intensity(4.0 / 5.0, pod: 3, morning: true) == .minimal)
    }

    @Test func normalAtEightyPercentWithoutTheMorningCheck() {
        #expect(intensity(0.80, pod: 3, morning: false) == .normal)
        #expect(intensity(1.0, pod: 12, morning: false) == .normal)
    }

    @Test func normalBelowEightyPercentEvenWithTheMorningCheckComplete() {
        #expect(intensity(0.7999, pod: 3, morning: true) == .normal)
        #expect(intensity(0.70, pod: 11, morning: true) == .normal)
    }

    // MARK: Configuration

    @Test func theAdherenceLimitsComeFromTheReminderRules() {
        let p = PlannerFixtures.planner {
            $0.reminders.lowAdherenceBelow = 0.5
            $0.reminders.minimalAdherenceAtLeast = 0.9
        }
        #expect(p.intensity(adherence: 0.55, pod: 2, morningCheckComplete: true) == .normal)
        #expect(p.intensity(adherence: 0.4999, pod: 2, morningCheckComplete: true) == .elevated)
        #expect(p.intensity(adherence: 0.85, pod: 2, morningCheckComplete: true) == .normal)
        #expect(p.intensity(adherence: 0.90, pod: 2, morningCheckComplete: true) == .minimal)
    }

    @Test func theCriticalWindowComesFromTheThresholdRules() {
        let p = PlannerFixtures.planner { $0.thresholds.criticalWindow = 6...8 }
        #expect(p.intensity(adherence: 0.5, pod: 5, morningCheckComplete: true) == .elevated)
        #expect(p.intensity(adherence: 0.5, pod: 6, morningCheckComplete: true) == .maximal)
        #expect(p.intensity(adherence: 1.0, pod: 9, morningCheckComplete: true) == .minimal)
    }

    @Test func intensitiesAreOrderedFromMinimalToMaximal() {
        #expect(ReminderIntensity.allCases.sorted() == [.minimal, .normal, .elevated, .maximal])
        #expect(ReminderIntensity.allCases.map(\.rawValue) == ["minimal", "normal", "elevated", "maximal"])
    }

    // MARK: From the day's task states

    @Test func thePlanTakesTheMorningCheckFromTheDaysTaskStates() {
        let morningDone = PlannerFixtures.tasks(done: PlannerFixtures.morningCheck)
        let onlyWeight = PlannerFixtures.tasks(done: [.weightMorning, .urineSG])
        let date = Fixtures.date("2026-03-04")
        #expect(planner.plan(date: date, pod: 2, adherence: 0.9, tasks: morningDone, zone: PlannerFixtures.berlin)
            .intensity == .minimal)
        #expect(planner.plan(date: date, pod: 2, adherence: 0.9, tasks: onlyWeight, zone: PlannerFixtures.berlin)
            .intensity == .normal)
        #expect(planner.plan(date: date, pod: 7, adherence: 0.9, tasks: morningDone, zone: PlannerFixtures.berlin)
            .intensity == .elevated)
        #expect(planner.plan(date: date, pod: 7, adherence: 0.3, tasks: morningDone, zone: PlannerFixtures.berlin)
            .intensity == .maximal)
    }
}
