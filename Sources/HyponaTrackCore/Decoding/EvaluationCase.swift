import HTJSON

/// One case of the offline evaluator (docs/product.md, "`evaluate`"): a profile, its days, the date
/// to evaluate and optionally the expected result.
public struct EvaluationCase: Sendable {
    /// What a case expects of the day's level: a light, or that the day is not evaluated
    /// (nothing any rule reads; written `"level": null`).
    public enum ExpectedLevel: Sendable, Equatable {
        case level(Level)
        case notEvaluated

        /// The level an evaluation must have to match.
        public var level: Level? { if case .level(let l) = self { l } else { nil } }
    }

    public struct Expectation: Sendable, Equatable {
        /// Nil: the case says nothing about the level.
        public var level: ExpectedLevel?
        public var riskClass: RiskClass?
        public var riskScore: Int?
        public var reasons: [String]?

        public init(level: ExpectedLevel? = nil, riskClass: RiskClass? = nil, riskScore: Int? = nil, reasons: [String]? = nil) {
            self.level = level
            self.riskClass = riskClass
            self.riskScore = riskScore
            self.reasons = reasons
        }
    }

    public var id: String
    public var description: String?
    public var profile: PatientProfile
    public var days: [DailyEntry]
    public var evaluateDate: LocalDate
    public var expect: Expectation?

    /// Decodes one case object or an array of them.
    public static func decodeAll(_ json: JSONValue, rules: RuleSet) throws(FieldError) -> [EvaluationCase] {
        if case .array(let items) = json {
            var cases: [EvaluationCase] = []
            for (i, item) in items.enumerated() { cases.append(try decode(item, path: "[\(i)]", rules: rules)) }
            return cases
        }
        return [try decode(json, path: "", rules: rules)]
    }

    public static func decode(_ json: JSONValue, path: String, rules: RuleSet) throws(FieldError) -> EvaluationCase {
        let r = try ObjectReader(json, path: path)
        let id = try r.required("id", .string(length: 1...128))
        let description = try r.optional("description", .string(length: 0...10_000))
        let profile = try ProfileDecoder.decode(try r.required("profile", .any), path: r.fieldPath("profile"), rules: rules)
        var dates = Set<LocalDate>()
        let days = try r.optionalArray("days", maxCount: 120) { v, p throws(FieldError) -> DailyEntry in
            let day = try DayDecoder.decode(v, path: p, rules: rules)
            guard dates.insert(day.date).inserted else { throw FieldError.invalid(jsonPath(p, "date"), "\(day.date) appears twice") }
            return day
        } ?? []
        let evaluateDate = try r.required("evaluateDate", Reads.localDate)
        let expect = try r.optional("expect", .any).map { v throws(FieldError) in
            try decodeExpectation(v, path: r.fieldPath("expect"))
        }
        try r.finish()
        return EvaluationCase(id: id, description: description, profile: profile, days: days,
                              evaluateDate: evaluateDate, expect: expect)
    }

    private static func expectedLevel(_ presence: Presence<String>) -> ExpectedLevel? {
        switch presence {
        case .absent: nil
        case .null: .notEvaluated
        case .value(let name): Level(rawValue: name).map { .level($0) }
        }
    }

    static func decodeExpectation(_ json: JSONValue, path: String) throws(FieldError) -> Expectation {
        let r = try ObjectReader(json, path: path)
        let e = Expectation(
            level: try expectedLevel(r.presence("level", .oneOf(["green", "yellow", "red"]))),
            riskClass: try r.optional("riskClass", .oneOf(RiskClass.allCases.map(\.rawValue))).flatMap { RiskClass(rawValue: $0) },
            riskScore: try r.optional("riskScore", .integer(0...1000)),
            reasons: try r.optionalArray("reasons", maxCount: 50) { v, p throws(FieldError) in
                try JSONRead.oneOf(ReasonCode.allCases.map(\.rawValue)).convert(v, p)
            })
        try r.finish()
        return e
    }
}
