import Testing
@testable import HyponaTrackCore

/// docs/clinical-rules.md §2: adjusted = reference + (standard − reference) × f, compared with ≥ against
/// the unrounded value; a value equal to a threshold on paper reaches it.
@Suite struct ThresholdScalingTests {
    let engine = EscalationEngine(rules: Fixtures.rules)

    /// f = 1.0 low outside the window, 0.9 low inside, 0.8 high outside, 0.72 high inside.
    func profile(high: Bool) -> PatientProfile {
        Fixtures.profile { if high { $0.histology = "craniopharyngioma" } }
    }
    func dateAt(pod: Int) -> String { "\(LocalDate("2026-03-02")!.adding(days: pod))" }

    @Test(arguments: [(false, 3, 1.0), (false, 5, 0.9), (true, 3, 0.8), (true, 7, 0.72)])
    func factorIsRiskTimesWindow(high: Bool, pod: Int, factor: Double) {
        let date = dateAt(pod: pod)
        let e = engine.evaluate(profile: profile(high: high), days: [Fixtures.day(date)], date: LocalDate(date)!)
        #expect(abs(e.factor - factor) < 1e-12)
    }

    @Test(arguments: [(4, false), (5, true), (9, true), (10, false)])
    func criticalWindowIsPODFiveToNineInclusive(pod: Int, inside: Bool) {
        let date = dateAt(pod: pod)
        let e = engine.evaluate(profile: profile(high: false), days: [Fixtures.day(date)], date: LocalDate(date)!)
        #expect(e.pod == pod)
        #expect(e.criticalWindow == inside)
    }

    /// The sodium examples of §3: yellow Na 134/134/135/135 and red Na 129/130/131/132 for
    /// f = 1.0/0.9/0.8/0.72 — the highest Na that still reaches each threshold.
    @Test(arguments: [(false, 3, 134.0, 129.0), (false, 6, 134.0, 130.0), (true, 3, 135.0, 131.0), (true, 6, 135.0, 132.0)])
    func sodiumThresholdsScaleTheDeficit(high: Bool, pod: Int, yellowNa: Double, redNa: Double) {
        let date = dateAt(pod: pod)
        func level(_ na: Double) -> Level? {
            let day = Fixtures.day(date) { $0.labSodium = [Fixtures.lab(date, "09:00", na)] }
            return engine.evaluate(profile: profile(high: high), days: [day], date: LocalDate(date)!)
                .reasons.first { $0.code == .sodiumLow }?.level
        }
        #expect(level(yellowNa) == .yellow)
        #expect(level(yellowNa + 1) == nil)
        #expect(level(redNa) == .red)
        #expect(level(redNa + 1) == .yellow)
    }

    @Test func seventyTwoPointEightOnSeventyIsExactlyFourPercentAndRed() {
        let e = engine.evaluate(profile: profile(high: false), days: [Fixtures.day("2026-03-05") { $0.weightMorningKg = 72.8 }],
                                date: LocalDate("2026-03-05")!)
        #expect(e.level == .red)
        #expect(e.reasons.first?.code == .weightGainPercent)
        #expect(e.reasons.first?.threshold == 4.0)
    }

    @Test func weightYellowAtOnePointZeroEightPercentWhenFIsPointSevenTwo() {
        // 70 × 1.0108 = 70.756 kg is +1.08 %, the adjusted yellow threshold for f = 0.72.
        let at = engine.evaluate(profile: profile(high: true), days: [Fixtures.day("2026-03-09") { $0.weightMorningKg = 70.756 }],
                                 date: LocalDate("2026-03-09")!)
        #expect(at.reasons.map(\.code) == [.weightGainPercent])
        let under = engine.evaluate(profile: profile(high: true), days: [Fixtures.day("2026-03-09") { $0.weightMorningKg = 70.755 }],
                                    date: LocalDate("2026-03-09")!)
        #expect(under.reasons.isEmpty)
    }

    @Test func symptomScoreReachesSevenPointTwoOnlyFromEight() {
        // 10 × 0.72 is exactly 7.2: S = 7 stays green, S = 8 is yellow.
        func level(vas: Int) -> Level? {
            engine.evaluate(profile: profile(high: true),
                            days: [Fixtures.day("2026-03-09") { $0.symptoms = [Fixtures.symptoms("2026-03-09", vas: vas)] }],
                            date: LocalDate("2026-03-09")!).level
        }
        #expect(level(vas: 3) == .green)   // S = 7
        #expect(level(vas: 2) == .yellow)  // S = 8
    }

    @Test func urineSGSupportThresholdsFollowTheReference() {
        let sg = Fixtures.rules.thresholds.urineSGSupport
        #expect(abs(sg.yellow(scaledBy: 1.0)! - 1.020) < 1e-12)
        #expect(abs(sg.yellow(scaledBy: 0.9)! - 1.019) < 1e-12)
        #expect(abs(sg.yellow(scaledBy: 0.8)! - 1.018) < 1e-12)
        #expect(abs(sg.yellow(scaledBy: 0.72)! - 1.0172) < 1e-12)
    }
}
