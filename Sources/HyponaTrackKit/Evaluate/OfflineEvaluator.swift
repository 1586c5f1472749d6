import HTJSON
import HyponaTrackCore

/// `hyponatrack evaluate`: evaluates case files without a server and compares them with their
/// expectations (`--check`).
public struct OfflineEvaluator: Sendable {
    public let engine: EscalationEngine

    public init(rules: RuleSet) { engine = EscalationEngine(rules: rules) }

    public struct Outcome: Sendable {
        public var results: [(id: String, evaluation: Evaluation)]
        /// Human-readable differences from the cases' `expect` blocks (empty when all match).
        public var differences: [String]
    }

    public func evaluate(_ cases: [EvaluationCase]) -> Outcome {
        var results: [(String, Evaluation)] = []
        var differences: [String] = []
        for c in cases {
            let e = engine.evaluate(profile: c.profile, days: c.days, date: c.evaluateDate)
            results.append((c.id, e))
            if let expect = c.expect { differences += compare(id: c.id, e, expect) }
        }
        return Outcome(results: results, differences: differences)
    }

    /// Level, risk class, risk score and the exact set of reason codes (info ones included).
    func compare(id: String, _ e: Evaluation, _ expect: EvaluationCase.Expectation) -> [String] {
        var out: [String] = []
        if let expected = expect.level, expected.level != e.level {
            out.append("\(id): level is \(e.level?.rawValue ?? "null (not evaluated)"), expected \(expected.level?.rawValue ?? "null (not evaluated)")")
        }
        if let riskClass = expect.riskClass, riskClass != e.risk.riskClass {
            out.append("\(id): riskClass is \(e.risk.riskClass.rawValue), expected \(riskClass.rawValue)")
        }
        if let score = expect.riskScore, score != e.risk.riskScore {
            out.append("\(id): riskScore is \(e.risk.riskScore), expected \(score)")
        }
        if let reasons = expect.reasons {
            let actual = Set(e.reasonCodes), wanted = Set(reasons)
            let missing = wanted.subtracting(actual).sorted(), extra = actual.subtracting(wanted).sorted()
            if !missing.isEmpty { out.append("\(id): missing reasons \(missing.joined(separator: ", "))") }
            if !extra.isEmpty { out.append("\(id): unexpected reasons \(extra.joined(separator: ", "))") }
        }
        return out
    }

    public static func resultsJSON(_ outcome: Outcome) -> JSONValue {
        .array(outcome.results.map { EvaluationJSON.result(id: $0.id, $0.evaluation) })
    }
}
