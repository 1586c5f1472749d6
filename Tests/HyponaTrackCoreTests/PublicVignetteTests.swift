import Foundation
import Testing
import HTJSON
import HyponaTrackCore
@testable import HyponaTrackKit

/// The 16 public acceptance vignettes (docs/clinical-rules.md §9), each as its own test.
@Suite struct PublicVignetteTests {
    static let cases: [EvaluationCase] = {
        let bytes = Array(try! Data(contentsOf: Repo.vignettes))
        return try! EvaluationCase.decodeAll(try! JSONParser.parse(bytes), rules: Fixtures.rules)
    }()

    @Test func thereAreSixteenVignettesAllWithExpectations() {
        #expect(Self.cases.count == 16)
        #expect(Self.cases.allSatisfy { $0.expect != nil })
    }

    @Test(arguments: cases.map(\.id))
    func vignetteMatchesItsExpectation(id: String) throws {
        let c = try #require(Self.cases.first { $0.id == id })
        let outcome = OfflineEvaluator(rules: Fixtures.rules).evaluate([c])
        #expect(outcome.differences.isEmpty, "\(outcome.differences)")
        let e = outcome.results[0].evaluation
        #expect(e.rulesVersion == Fixtures.rules.version)
    }

    @Test func aWrongExpectationIsReportedAsEveryDifference() throws {
        var c = try #require(Self.cases.first { $0.id == "PV06" })
        c.expect = .init(level: .level(.green), riskClass: .high, riskScore: 1, reasons: ["symptom_score", "confusion"])
        let differences = OfflineEvaluator(rules: Fixtures.rules).evaluate([c]).differences
        #expect(differences.count == 5)
        #expect(differences.contains { $0.contains("level is red, expected green") })
        #expect(differences.contains { $0.contains("missing reasons confusion") })
        #expect(differences.contains { $0.contains("unexpected reasons fluid_excess, multiple_yellow, urine_sg_support, weight_gain_pct") })
    }
}
