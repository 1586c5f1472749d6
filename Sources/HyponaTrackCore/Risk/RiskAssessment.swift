/// The risk class (docs/clinical-rules.md §1). Only `high` changes thresholds by default.
public enum RiskClass: String, Sendable, CaseIterable, Comparable {
    case low, medium, high

    private var rank: Int { self == .low ? 0 : self == .medium ? 1 : 2 }
    public static func < (a: RiskClass, b: RiskClass) -> Bool { a.rank < b.rank }
}

/// Kat A/B/C points, score and class of one profile.
public struct RiskAssessment: Sendable, Equatable {
    public var katA: Int
    public var katB: Int
    public var katC: Int
    public var katBPending: Bool
    public var riskClass: RiskClass
    /// True when the class comes from an "always high" histology rather than the score.
    public var classOverridden: Bool

    public var riskScore: Int { katA + katB + katC }
}
