/// One item of the risk model (docs/clinical-rules.md §1) as it scored for a profile: what the
/// profile says and the points the rules in force give it. `RiskEngine.factors` lists every
/// item of Kat A, B and C, those scoring 0 included, so a report can show the whole sum.
public struct RiskFactor: Sendable, Equatable {
    public enum Category: String, Sendable, CaseIterable {
        case a = "A", b = "B", c = "C"
    }

    /// The item and the profile's value of it (nil: not entered).
    public enum Item: Sendable, Equatable {
        case histology(String?)
        case stalkDeviation(Bool)
        /// Each code once, in the order first listed; `uncapped`: their sum before the cap.
        case riskMedications([String], uncapped: Int)
        case age(Int)
        case sex(PatientProfile.Sex)
        case bmi(Double)
        /// The lowest sodium on POD 1–2 and the pre-op sodium it may have dropped from.
        case podSodium(Double?, preop: Double?)
        case csfLeak(Bool?)
        case operationMinutes(Int?)
        case postopNausea(String?)
        case diabetesInsipidusOrDesmopressin(diabetesInsipidus: Bool, desmopressin: Bool)
        case newCortisolDeficiency(Bool)
    }

    public var category: Category
    public var item: Item
    public var points: Int

    public init(_ category: Category, _ item: Item, points: Int) {
        self.category = category
        self.item = item
        self.points = points
    }
}
