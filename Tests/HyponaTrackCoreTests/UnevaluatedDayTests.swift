import Testing
@testable import HyponaTrackCore

/// docs/clinical-rules.md §3: "a parameter with no data that day is not evaluated (it is neither
/// green nor a signal)". A day on which no rule has its data has no level at all, and still
/// records the rules version that found nothing to score. Low risk, POD 3 (2026-03-05).
@Suite struct UnevaluatedDayTests {
    let engine = EscalationEngine(rules: Fixtures.rules)
    let d = "2026-03-05"

    func evaluate(_ change: (inout DailyEntry) -> Void, previous: [DailyEntry] = [],
                  profile: (inout PatientProfile) -> Void = { _ in }) -> Evaluation {
        engine.evaluate(profile: Fixtures.profile(profile), days: [Fixtures.day(d, change)] + previous, date: LocalDate(d)!)
    }

    @Test func aDayHoldingOnlyValuesNoRuleReadsIsNotEvaluatedButKeepsItsRulesVersion() {
        let e = evaluate {
            $0.weightEveningKg = 90
            $0.steps = 12_000
            $0.hrvSdnnMs = 20
            $0.sleepMinutes = 200
            $0.restingHeartRate = 110
            $0.tappingTests = [TappingTest(id: "t1", time: Fixtures.time("\(d)T09:00:00+01:00"), taps: 10, durationSeconds: 10)]
            $0.desmopressinDoses = [DesmopressinDose(id: "m1", time: Fixtures.time("\(d)T09:00:00+01:00"), doseMcg: 100)]
        }
        #expect(e.level == nil && e.reasons.isEmpty)
        #expect(e.rulesVersion == Fixtures.rules.version && e.pod == 3 && e.factor == 1.0)
    }

    @Test func anEmptySubmissionIsNotEvaluated() {
        #expect(evaluate { _ in }.level == nil)
    }

    @Test func urineSGAloneIsOnlySupportAndDoesNotMakeTheDayEvaluated() {
        #expect(evaluate { $0.urineSG = 1.040 }.level == nil)
        #expect(evaluate { $0.urineSG = 1.002 }.level == nil)
    }

    @Test func previousDaysAloneNeverMakeADayEvaluated() {
        // Every look-back rule (weight_gain_24h, fluid_over_limit_2d, sodium_fall) needs today's value.
        let yesterday = Fixtures.day("2026-03-04") {
            $0.weightMorningKg = 60
            $0.fluidIntakeMl = 4000
            $0.labSodium = [Fixtures.lab("2026-03-04", "08:00", 145)]
        }
        #expect(evaluate({ $0.steps = 100 }, previous: [yesterday]).level == nil)
    }

    @Test func eachValueARuleReadsMakesTheDayEvaluatedOnItsOwn() {
        let scored: [(String, (inout DailyEntry) -> Void)] = [
            ("morning weight", { $0.weightMorningKg = 70 }),
            ("symptom entry", { $0.symptoms = [Fixtures.symptoms("2026-03-05")] }),
            ("no vomiting", { $0.vomitingEpisodes = 0 }),
            ("lab sodium", { $0.labSodium = [Fixtures.lab("2026-03-05", "08:00", 140)] }),
            ("fluid intake with a limit", { $0.fluidIntakeMl = 1000 }),
            ("reaction test with a baseline", { $0.reactionTests = [Fixtures.reaction("2026-03-05", "09:00", medianMs: 600, id: "r1")] }),
        ]
        for (name, change) in scored {
            #expect(evaluate(change).level == .green, "\(name)")
        }
        #expect(evaluate { $0.emergencySymptoms = ["seizure"] }.level == .red)
    }

    @Test func fluidIntakeCountsOnlyWhileTheFluidRulesApply() {
        #expect(evaluate({ $0.fluidIntakeMl = 1000 }, profile: { $0.fluidLimitMl = nil }).level == nil)
        #expect(evaluate({ $0.fluidIntakeMl = 1000 }, profile: { $0.diabetesInsipidusActive = true }).level == nil)
        #expect(evaluate({ $0.fluidIntakeMl = 1000; $0.urineSG = 1.030 }, profile: { $0.fluidLimitMl = nil }).level == nil)
    }
}
