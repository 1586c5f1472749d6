import Testing
@testable import HyponaTrackCore

@Suite struct RiskEngineTests {
    let engine = RiskEngine(rules: Fixtures.rules.riskModel)

    @Test func katACountsEveryItemOfTheTable() {
        let p = Fixtures.profile {
            $0.histology = "cushing"; $0.stalkDeviation = true; $0.age = 60; $0.sex = .female; $0.bmi = 25.9
        }
        // cushing 2 + stalk 2 + age ≥ 60 1 + female 1 + BMI < 26 1
        #expect(engine.katA(p) == 7)
    }

    @Test func factorsListEveryItemOfKatABAndCWithPointsThatAddUpToTheScore() {
        let p = Fixtures.profile {
            $0.histology = "cushing"; $0.age = 64; $0.sex = .female; $0.bmi = 23.5
            $0.riskMedications = ["thiazide", "carbamazepine", "thiazide"]
            $0.katB = KatB(podSodium: 136, preopSodium: 142, operationMinutes: 200)
            $0.katC = KatC(postopNausea: "antiemetic", desmopressin: true)
        }
        let factors = engine.factors(p)
        #expect(factors.map(\.category.rawValue).joined() == "AAAAAABBBCCC", "every item, zero points included")
        #expect(factors.contains(RiskFactor(.a, .riskMedications(["thiazide", "carbamazepine"], uncapped: 4), points: 3)))
        #expect(factors.contains(RiskFactor(.a, .stalkDeviation(false), points: 0)))
        #expect(factors.contains(RiskFactor(.b, .podSodium(136, preop: 142), points: 1)))
        #expect(factors.contains(RiskFactor(.b, .csfLeak(nil), points: 0)))
        #expect(factors.contains(RiskFactor(.c, .diabetesInsipidusOrDesmopressin(diabetesInsipidus: false, desmopressin: true), points: 2)))
        let a = engine.assess(p)
        for (category, sum) in [(RiskFactor.Category.a, a.katA), (.b, a.katB), (.c, a.katC)] {
            #expect(factors.filter { $0.category == category }.reduce(0) { $0 + $1.points } == sum, "Kat \(category.rawValue)")
        }
        #expect(a.katA == 2 + 3 + 1 + 1 + 1 && a.katB == 1 + 1 && a.katC == 1 + 2)
    }

    @Test func ageBelowSixtyAndBMIOfTwentySixScoreNothing() {
        let p = Fixtures.profile { $0.age = 59; $0.bmi = 26.0; $0.sex = .male; $0.histology = nil }
        #expect(engine.katA(p) == 0)
    }

    @Test func medicationPointsAreCappedAtThree() {
        let p = Fixtures.profile { $0.riskMedications = ["thiazide", "carbamazepine", "opioid"]; $0.sex = .male; $0.histology = nil }
        #expect(engine.katA(p) == 3)
    }

    @Test func aMedicationListedTwiceCountsOnce() {
        let p = Fixtures.profile { $0.riskMedications = ["opioid", "opioid"]; $0.sex = .male; $0.histology = nil }
        #expect(engine.katA(p) == 1)
    }

    @Test(arguments: [(134.9, 2), (135.0, 1), (138.9, 1), (139.0, 0), (145.0, 0)])
    func podSodiumBands(sodium: Double, points: Int) {
        #expect(engine.katB(KatB(podSodium: sodium)) == points)
    }

    @Test func aPreOpDropOfFiveGivesAtLeastOnePoint() {
        #expect(engine.katB(KatB(podSodium: 140, preopSodium: 145)) == 1)
        #expect(engine.katB(KatB(podSodium: 140, preopSodium: 144.9)) == 0)
        // Already 2 from the band: the drop does not add.
        #expect(engine.katB(KatB(podSodium: 130, preopSodium: 140)) == 2)
    }

    @Test func csfLeakAndOperationsOverThreeHoursScore() {
        #expect(engine.katB(KatB(operationMinutes: 180, csfLeak: true)) == 2)
        #expect(engine.katB(KatB(operationMinutes: 181, csfLeak: false)) == 1)
    }

    @Test func katCCountsNauseaDIOrDesmopressinOnceAndCortisol() {
        #expect(engine.katC(KatC(postopNausea: "vomiting", diabetesInsipidus: true, desmopressin: true, newCortisolDeficiency: true)) == 5)
        #expect(engine.katC(KatC(postopNausea: "antiemetic")) == 1)
        #expect(engine.katC(KatC()) == 0)
    }

    @Test func katBIsPendingOnlyWhileItsThreeInputsAreAllMissing() {
        #expect(Fixtures.profile { $0.katB = nil }.katBPending)
        #expect(Fixtures.profile { $0.katB = KatB(preopSodium: 140) }.katBPending)
        #expect(!Fixtures.profile { $0.katB = KatB(csfLeak: false) }.katBPending)
        let pending = engine.assess(Fixtures.profile { $0.katB = nil })
        #expect(pending.katBPending && pending.katB == 0)
    }

    @Test func aPartlyFilledKatBScoresWhatIsThere() {
        let a = engine.assess(Fixtures.profile { $0.katB = KatB(csfLeak: true) })
        #expect(!a.katBPending && a.katB == 2)
    }

    // (postop nausea, CSF leak, cortisol deficiency) on top of DI (2 points); katA is 0.
    @Test(arguments: [("none", false, true, 3, RiskClass.low), ("vomiting", false, false, 4, .medium),
                      ("vomiting", true, false, 6, .medium), ("vomiting", true, true, 7, .high)])
    func classBoundaries(nausea: String, csfLeak: Bool, cortisol: Bool, score: Int, expected: RiskClass) {
        let p = Fixtures.profile {
            $0.sex = .male; $0.histology = nil
            $0.katB = KatB(podSodium: 140, operationMinutes: 120, csfLeak: csfLeak)
            $0.katC = KatC(postopNausea: nausea, diabetesInsipidus: true, newCortisolDeficiency: cortisol)
        }
        let a = engine.assess(p)
        #expect(a.riskScore == score)
        #expect(a.riskClass == expected)
    }

    @Test func craniopharyngiomaIsAlwaysHigh() {
        let a = engine.assess(Fixtures.profile { $0.histology = "craniopharyngioma"; $0.sex = .male })
        #expect(a.riskScore == 3)
        #expect(a.riskClass == .high)
        #expect(a.classOverridden)
    }
}
