/// Every code the escalation engine can report (docs/clinical-rules.md §3–§5), in reporting order.
public enum ReasonCode: String, Sendable, CaseIterable, Comparable {
    // Red-only single-item triggers (§4), in no group.
    case emergencySymptom = "emergency_symptom"
    case confusion
    case sodiumProfound = "sodium_profound"
    case sodiumFallAcute = "sodium_fall_acute"
    case sodiumSymptomatic = "sodium_symptomatic"
    case vomiting
    // Combining (§5).
    case multipleYellow = "multiple_yellow"
    // Grouped signals (§3, §4).
    case sodiumLow = "sodium_low"
    case sodiumFall = "sodium_fall"
    case weightGainPercent = "weight_gain_pct"
    case weightGain24h = "weight_gain_24h"
    case symptomScore = "symptom_score"
    case nauseaSevere = "nausea_severe"
    case headacheSevere = "headache_severe"
    case reactionTime = "reaction_time"
    case fluidExcess = "fluid_excess"
    case fluidOverLimit2d = "fluid_over_limit_2d"
    case possibleDI = "possible_di"
    // Support only (§5).
    case urineSGSupport = "urine_sg_support"

    private var order: Int { ReasonCode.allCases.firstIndex(of: self)! }
    public static func < (a: ReasonCode, b: ReasonCode) -> Bool { a.order < b.order }
}

/// One fired rule: its code, the level it reached, the measured value and the threshold it
/// reached after scaling (docs/clinical-rules.md §5: "every fired reason").
public struct Reason: Sendable, Equatable {
    public var code: ReasonCode
    public var level: Level
    public var value: Double
    public var threshold: Double?

    public init(code: ReasonCode, level: Level, value: Double, threshold: Double?) {
        self.code = code
        self.level = level
        self.value = value
        self.threshold = threshold
    }
}

/// The traffic light of one patient-day, with everything needed to explain and audit it.
public struct Evaluation: Sendable, Equatable {
    public var date: LocalDate
    /// Green, yellow or red; nil when the day is not evaluated: no rule had its data that day
    /// (docs/clinical-rules.md §3, "neither green nor a signal"). Such a result still carries the
    /// risk, POD, factor and rules version, and fires no reason.
    public var level: Level?
    /// Red first, then yellow, then info; within a level in `ReasonCode` order.
    public var reasons: [Reason]
    public var risk: RiskAssessment
    public var pod: Int
    public var criticalWindow: Bool
    /// f = fRisk × fWindow.
    public var factor: Double
    public var rulesVersion: String

    public var reasonCodes: [String] { reasons.map(\.code.rawValue) }
}
