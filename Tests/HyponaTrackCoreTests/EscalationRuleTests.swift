import Testing
@testable import HyponaTrackCore

/// One test per rule of docs/clinical-rules.md §3–§5 and its edges. Unless a test says otherwise the
/// patient is low risk and the day is POD 3 (2026-03-05, f = 1.0).
@Suite struct EscalationRuleTests {
    let engine = EscalationEngine(rules: Fixtures.rules)
    let d = "2026-03-05"

    func evaluate(_ days: [DailyEntry], on date: String? = nil, _ change: (inout PatientProfile) -> Void = { _ in }) -> Evaluation {
        engine.evaluate(profile: Fixtures.profile(change), days: days, date: LocalDate(date ?? d)!)
    }
    func codes(_ e: Evaluation) -> [String] { e.reasons.map(\.code.rawValue).sorted() }

    @Test func aDayWithoutDataIsNotEvaluatedAndHasNoReasons() {
        let e = evaluate([])
        #expect(e.level == nil && e.reasons.isEmpty)
    }

    // MARK: weight

    @Test func weightGain24hNeedsThePreviousCalendarDayAndHasNoOlderFallback() {
        let today = Fixtures.day(d) { $0.weightMorningKg = 71.0 }
        let yesterday = Fixtures.day("2026-03-04") { $0.weightMorningKg = 70.0 }
        let twoDaysAgo = Fixtures.day("2026-03-03") { $0.weightMorningKg = 70.0 }
        #expect(codes(evaluate([today, yesterday])).contains("weight_gain_24h"))
        #expect(!codes(evaluate([today, twoDaysAgo])).contains("weight_gain_24h"))
        let yesterdayEveningOnly = Fixtures.day("2026-03-04") { $0.weightEveningKg = 69.0 }
        #expect(!codes(evaluate([today, yesterdayEveningOnly])).contains("weight_gain_24h"))
    }

    @Test func eveningWeightIsStoredButNotScored() {
        #expect(evaluate([Fixtures.day(d) { $0.weightEveningKg = 80 }]).level == nil)
        #expect(evaluate([Fixtures.day(d) { $0.weightEveningKg = 80; $0.weightMorningKg = 70 }]).level == .green)
    }

    @Test func twoWeightCodesCountAsOneGroup() {
        let e = evaluate([Fixtures.day(d) { $0.weightMorningKg = 71.1 }, Fixtures.day("2026-03-04") { $0.weightMorningKg = 70.0 }])
        #expect(codes(e) == ["weight_gain_24h", "weight_gain_pct"])
        #expect(e.level == .yellow)
    }

    // MARK: fluid

    @Test func fluidExcessIsPercentOverTheLimit() {
        #expect(codes(evaluate([Fixtures.day(d) { $0.fluidIntakeMl = 1800 }])) == ["fluid_excess"])  // +20 %
        #expect(codes(evaluate([Fixtures.day(d) { $0.fluidIntakeMl = 1799 }])).isEmpty)
        let red = evaluate([Fixtures.day(d) { $0.fluidIntakeMl = 3000 }])                          // +100 %
        #expect(red.level == .red && red.reasons[0].code == .fluidExcess)
    }

    @Test func fluidRulesAreOffWithoutALimitOrWithDIActive() {
        let days = [Fixtures.day(d) { $0.fluidIntakeMl = 3000 }, Fixtures.day("2026-03-04") { $0.fluidIntakeMl = 3000 }]
        // The intake is then the day's only value and no rule reads it: the day is not evaluated.
        #expect(evaluate(days) { $0.fluidLimitMl = nil }.level == nil)
        #expect(evaluate(days) { $0.diabetesInsipidusActive = true }.level == nil)
    }

    @Test func fluidOverTheLimitTwoDaysRunningIsYellow() {
        let days = [Fixtures.day(d) { $0.fluidIntakeMl = 1600 }, Fixtures.day("2026-03-04") { $0.fluidIntakeMl = 1501 }]
        #expect(codes(evaluate(days)) == ["fluid_over_limit_2d"])
        let atLimitYesterday = [days[0], Fixtures.day("2026-03-04") { $0.fluidIntakeMl = 1500 }]
        #expect(codes(evaluate(atLimitYesterday)).isEmpty)
    }

    // MARK: urine SG support

    @Test func sgSupportWithoutAnyGroupIsInfoAndLeavesGreen() {
        let e = evaluate([Fixtures.day(d) { $0.urineSG = 1.020; $0.fluidIntakeMl = 1500 }])
        #expect(e.level == .green)
        #expect(e.reasons.map(\.level) == [.info])
        #expect(codes(e) == ["urine_sg_support"])
    }

    @Test func sgSupportNeedsIntakeAtOrOverTheLimit() {
        #expect(codes(evaluate([Fixtures.day(d) { $0.urineSG = 1.030; $0.fluidIntakeMl = 1499 }])).isEmpty)
    }

    @Test func sgSupportAddsAGroupOnlyWhenOneCounts() {
        // Symptoms (S = 10) + weight (+1.5 %) = 2 groups; support makes 3 → multiple_yellow red.
        let day = Fixtures.day(d) {
            $0.urineSG = 1.020; $0.fluidIntakeMl = 1500; $0.weightMorningKg = 71.05
            $0.symptoms = [Fixtures.symptoms(d, vas: 0)]
        }
        let e = evaluate([day])
        #expect(e.level == .red)
        #expect(codes(e) == ["multiple_yellow", "symptom_score", "urine_sg_support", "weight_gain_pct"])
        #expect(e.reasons.first { $0.code == .urineSGSupport }?.level == .yellow)
        #expect(e.reasons.first { $0.code == .multipleYellow }?.value == 3)
    }

    @Test func sgSupportIsOffWhileDIIsActive() {
        let day = Fixtures.day(d) { $0.urineSG = 1.030; $0.fluidIntakeMl = 1600; $0.symptoms = [Fixtures.symptoms(d, vas: 0)] }
        #expect(codes(evaluate([day]) { $0.diabetesInsipidusActive = true }) == ["symptom_score"])
    }

    // MARK: symptoms

    @Test func theDaysHighestSymptomScoreCounts() {
        let day = Fixtures.day(d) {
            $0.symptoms = [Fixtures.symptoms(d, vas: 10, id: "a"), Fixtures.symptoms(d, slot: .evening, at: "20:00", vas: 0, id: "b")]
        }
        let e = evaluate([day])
        #expect(e.reasons.first?.value == 10)
    }

    @Test func symptomScoreOfTwentyIsRed() {
        // 3·2 + 3·2 + 2·2 + 2·2 + (10 − 10) = 20, no single-item trigger.
        let e = evaluate([Fixtures.day(d) { $0.symptoms = [Fixtures.symptoms(d, nausea: 2, headache: 2, fatigue: 2, cramps: 2)] }])
        #expect(e.level == .red)
        #expect(codes(e) == ["symptom_score"])
    }

    @Test func severeNauseaOrHeadacheIsAtLeastYellowInTheSymptomGroup() {
        let e = evaluate([Fixtures.day(d) { $0.symptoms = [Fixtures.symptoms(d, nausea: 3, headache: 3)] }])
        #expect(codes(e) == ["headache_severe", "nausea_severe", "symptom_score"])
        #expect(e.level == .yellow)
    }

    @Test func anyConfusionIsRedWhateverTheScore() {
        let e = evaluate([Fixtures.day(d) { $0.symptoms = [Fixtures.symptoms(d, confusion: 1)] }])
        #expect(e.level == .red && codes(e) == ["confusion"])
    }

    // MARK: reaction time

    @Test func oneSlowSessionIsYellow() {
        let e = evaluate([Fixtures.day(d) { $0.reactionTests = [Fixtures.reaction(d, "09:00", medianMs: 660, id: "r1")] }])
        #expect(e.level == .yellow && codes(e) == ["reaction_time"])   // +10 %
        let under = evaluate([Fixtures.day(d) { $0.reactionTests = [Fixtures.reaction(d, "09:00", medianMs: 659, id: "r1")] }])
        #expect(under.level == .green)
    }

    @Test func redRequiresTwoConfirmedReactionSessionsAtMostSixtyMinutesApart() {
        func level(_ second: String) -> Level? {
            evaluate([Fixtures.day(d) {
                $0.reactionTests = [Fixtures.reaction(d, "09:00", medianMs: 750, id: "r1"),
                                    Fixtures.reaction(d, second, medianMs: 750, id: "r2")]
            }]).level
        }
        #expect(level("10:00") == .red)
        #expect(level("10:01") == .yellow)
    }

    @Test func oneRedSessionAloneIsOnlyYellow() {
        let e = evaluate([Fixtures.day(d) { $0.reactionTests = [Fixtures.reaction(d, "09:00", medianMs: 900, id: "r1")] }])
        #expect(e.level == .yellow)
    }

    @Test func reactionTimeIsNotEvaluatedWithoutABaseline() {
        let e = evaluate([Fixtures.day(d) { $0.reactionTests = [Fixtures.reaction(d, "09:00", medianMs: 900, id: "r1")] }]) {
            $0.baselineReactionTimeMs = nil
        }
        #expect(e.level == nil && e.reasons.isEmpty)
    }

    // MARK: sodium

    @Test func profoundHyponatremiaIsRed() {
        let e = evaluate([Fixtures.day(d) { $0.labSodium = [Fixtures.lab(d, "09:00", 125)] }])
        #expect(codes(e) == ["sodium_low", "sodium_profound"])
    }

    @Test func sodiumFallOverTwoPreviousDays() {
        let days = [Fixtures.day(d) { $0.labSodium = [Fixtures.lab(d, "09:00", 134)] },
                    Fixtures.day("2026-03-03") { $0.labSodium = [Fixtures.lab("2026-03-03", "09:00", 144)] }]
        let e = evaluate(days)
        #expect(codes(e) == ["sodium_fall", "sodium_fall_acute", "sodium_low"])
        #expect(e.reasons.first { $0.code == .sodiumFallAcute }?.value == 10)
    }

    @Test func aFallMeasuredAgainstThreeDaysAgoDoesNotCount() {
        let days = [Fixtures.day(d) { $0.labSodium = [Fixtures.lab(d, "09:00", 136)] },
                    Fixtures.day("2026-03-02") { $0.labSodium = [Fixtures.lab("2026-03-02", "09:00", 146)] }]
        #expect(evaluate(days).level == .green)
    }

    @Test func sodiumFallWithinADayCountsOnlyReadingsBeforeTheLowest() {
        let fallen = Fixtures.day(d) { $0.labSodium = [Fixtures.lab(d, "08:00", 142), Fixtures.lab(d, "14:00", 136)] }
        #expect(codes(evaluate([fallen])) == ["sodium_fall"])   // fall 6, Na 136: yellow only
        let risen = Fixtures.day(d) { $0.labSodium = [Fixtures.lab(d, "08:00", 136), Fixtures.lab(d, "14:00", 142)] }
        #expect(codes(evaluate([risen])).isEmpty)
    }

    @Test func anAcuteFallNeedsSodiumBelow135() {
        let day = Fixtures.day(d) { $0.labSodium = [Fixtures.lab(d, "08:00", 146), Fixtures.lab(d, "14:00", 135)] }
        let e = evaluate([day])
        #expect(codes(e) == ["sodium_fall"])
        #expect(e.level == .yellow)
    }

    @Test func theLatestOfRepeatedLowestReadingsIsTheOneCompared() {
        // 133 at 08:00 and again at 16:00; 144 at 12:00 lies before the latest lowest → fall 11.
        let day = Fixtures.day(d) {
            $0.labSodium = [Fixtures.lab(d, "08:00", 133), Fixtures.lab(d, "12:00", 144), Fixtures.lab(d, "16:00", 133)]
        }
        #expect(codes(evaluate([day])).contains("sodium_fall_acute"))
    }

    @Test func lowSodiumWithAModeratelySevereSymptomIsRed() {
        let day = Fixtures.day(d) { $0.labSodium = [Fixtures.lab(d, "09:00", 134)]; $0.symptoms = [Fixtures.symptoms(d, nausea: 2)] }
        #expect(codes(evaluate([day])).contains("sodium_symptomatic"))
        let normal = Fixtures.day(d) { $0.labSodium = [Fixtures.lab(d, "09:00", 135)]; $0.symptoms = [Fixtures.symptoms(d, nausea: 2)] }
        #expect(!codes(evaluate([normal])).contains("sodium_symptomatic"))
    }

    @Test func profileSodiumValuesAreNotLabValues() {
        let e = evaluate([Fixtures.day(d) { $0.weightMorningKg = 70 }]) { $0.katB = KatB(podSodium: 120, preopSodium: 140) }
        #expect(e.level == .green)
    }

    // MARK: vomiting, emergency symptoms

    @Test func twoVomitingEpisodesAreRed() {
        #expect(codes(evaluate([Fixtures.day(d) { $0.vomitingEpisodes = 2 }])) == ["vomiting"])
        #expect(evaluate([Fixtures.day(d) { $0.vomitingEpisodes = 1 }]).level == .green)
    }

    @Test func oneVomitingEpisodeWithLowSodiumIsRed() {
        let day = Fixtures.day(d) { $0.vomitingEpisodes = 1; $0.labSodium = [Fixtures.lab(d, "09:00", 134)] }
        #expect(codes(evaluate([day])) == ["sodium_low", "vomiting"])
    }

    @Test func anyEmergencySymptomIsRed() {
        for symptom in Fixtures.rules.thresholds.emergencySymptoms {
            let e = evaluate([Fixtures.day(d) { $0.emergencySymptoms = [symptom] }])
            #expect(e.level == .red && codes(e) == ["emergency_symptom"])
        }
    }

    // MARK: possible DI

    @Test func weightThreePercentUnderBaselineWarnsOfDI() {
        #expect(codes(evaluate([Fixtures.day(d) { $0.weightMorningKg = 67.9 }])) == ["possible_di"])
        #expect(codes(evaluate([Fixtures.day(d) { $0.weightMorningKg = 67.91 }])).isEmpty)
    }

    @Test func diluteUrineWithIntakeAtTheLimitWarnsOfDI() {
        #expect(codes(evaluate([Fixtures.day(d) { $0.urineSG = 1.005; $0.fluidIntakeMl = 1500 }])) == ["possible_di"])
        #expect(codes(evaluate([Fixtures.day(d) { $0.urineSG = 1.005; $0.fluidIntakeMl = 1400 }])).isEmpty)
    }

    @Test func possibleDIIsOffWhileDIIsActive() {
        #expect(evaluate([Fixtures.day(d) { $0.weightMorningKg = 60 }]) { $0.diabetesInsipidusActive = true }.level == .green)
    }

    // MARK: combining

    @Test func multipleYellowIsAlsoReportedOnADayAlreadyRed() {
        let day = Fixtures.day(d) {
            $0.weightMorningKg = 71.1; $0.fluidIntakeMl = 1800
            $0.symptoms = [Fixtures.symptoms(d, confusion: 1, vas: 4)]
        }
        let e = evaluate([day])
        #expect(codes(e) == ["confusion", "fluid_excess", "multiple_yellow", "symptom_score", "weight_gain_pct"])
        #expect(e.reasons.prefix(2).allSatisfy { $0.level == .red })
    }

    @Test func aCodeWithYellowAndRedIsReportedOnceAtItsHighestLevel() {
        let e = evaluate([Fixtures.day(d) { $0.weightMorningKg = 75 }])
        #expect(e.reasons.count == 1 && e.reasons[0].level == .red)
    }

    @Test func everyEvaluationCarriesTheRulesVersionAndRiskFigures() {
        let e = evaluate([Fixtures.day(d) { $0.weightMorningKg = 70 }])
        #expect(e.rulesVersion == Fixtures.rules.version)
        #expect(e.rulesVersion.count == 16)
        #expect(e.risk.riskScore == 1 && e.pod == 3 && !e.criticalWindow && e.factor == 1)
    }

    @Test func changedThresholdsChangeTheDecision() {
        var rules = Fixtures.rules
        rules.thresholds.weightGainPercent.yellow = 1.0
        let e = EscalationEngine(rules: rules).evaluate(profile: Fixtures.profile(),
                                                        days: [Fixtures.day(d) { $0.weightMorningKg = 70.75 }], date: LocalDate(d)!)
        #expect(e.level == .yellow)
        #expect(evaluate([Fixtures.day(d) { $0.weightMorningKg = 70.75 }]).level == .green)
    }
}
