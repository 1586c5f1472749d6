/// A code on a profile that the risk model's code tables do not hold, with the key of the table
/// in `risk-model.json` that should: the risk engine would score it 0 points without a word.
public struct UnknownRuleCode: Sendable, Hashable, Comparable {
    /// `katA.histology`, `katA.riskMedications.points` or `katC.postopNausea`.
    public let key: String
    public let code: String

    public init(key: String, code: String) {
        self.key = key
        self.code = code
    }

    public static func < (a: UnknownRuleCode, b: UnknownRuleCode) -> Bool { (a.key, a.code) < (b.key, b.code) }
}

extension RiskModelRules {
    /// The codes of `profile` these rules do not know, in key order. Empty for a profile entered
    /// under these rules (enrolment and updates refuse unknown codes); a profile stored under
    /// earlier rules, whose file renamed or dropped a code, may have some.
    public func unknownCodes(in profile: PatientProfile) -> [UnknownRuleCode] {
        var out: [UnknownRuleCode] = []
        if let h = profile.histology, histologyPoints[h] == nil { out.append(UnknownRuleCode(key: "katA.histology", code: h)) }
        for m in Set(profile.riskMedications).sorted() where medicationPoints[m] == nil {
            out.append(UnknownRuleCode(key: "katA.riskMedications.points", code: m))
        }
        if let n = profile.katC.postopNausea, postopNauseaPoints[n] == nil {
            out.append(UnknownRuleCode(key: "katC.postopNausea", code: n))
        }
        return out
    }
}
