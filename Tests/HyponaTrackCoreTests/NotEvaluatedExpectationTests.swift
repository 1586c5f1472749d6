import Foundation
import Testing
import HTJSON
import HyponaTrackCore
@testable import HyponaTrackKit

/// A case file can expect a day to be *not evaluated* (`"expect": {"level": null}`), and a
/// wrong expectation either way is a difference (`hyponatrack evaluate --check`).
@Suite struct NotEvaluatedExpectationTests {
    /// PV01 with its day reduced to `day` and its expectation to `expect`.
    static func differences(day: [String: Any], expect: [String: Any]) throws -> [String] {
        let all = try JSONSerialization.jsonObject(with: Data(contentsOf: Repo.vignettes)) as! [[String: Any]]
        var c = try #require(all.first { $0["id"] as? String == "PV01" })
        var base = day
        base["date"] = "2026-03-05"
        c["days"] = [base]
        c["expect"] = expect
        let bytes = Array(try JSONSerialization.data(withJSONObject: c))
        let cases = try EvaluationCase.decodeAll(try JSONParser.parse(bytes), rules: Fixtures.rules)
        return OfflineEvaluator(rules: Fixtures.rules).evaluate(cases).differences
    }

    @Test func aDayWithOnlyStepsMatchesLevelNull() throws {
        #expect(try Self.differences(day: ["steps": 4000], expect: ["level": NSNull()]).isEmpty)
    }

    @Test func aDayWithOnlyStepsExpectedGreenIsADifference() throws {
        let d = try Self.differences(day: ["steps": 4000], expect: ["level": "green"])
        #expect(d == ["PV01: level is null (not evaluated), expected green"])
    }

    @Test func anEvaluatedDayExpectedNotEvaluatedIsADifference() throws {
        let d = try Self.differences(day: ["weightMorningKg": 80.4], expect: ["level": NSNull()])
        #expect(d == ["PV01: level is green, expected null (not evaluated)"])
    }

    @Test func anAbsentLevelExpectsNothingOfTheLevel() throws {
        #expect(try Self.differences(day: ["steps": 4000], expect: [:]).isEmpty)
    }
}
