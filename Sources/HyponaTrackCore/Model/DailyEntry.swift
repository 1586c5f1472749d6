/// One local day of a patient's data (docs/product.md, case/day format). Every value is optional:
/// a parameter with no data that day is not evaluated.
public struct DailyEntry: Sendable, Equatable {
    public var date: LocalDate
    public var weightMorningKg: Double?
    public var weightEveningKg: Double?
    public var fluidIntakeMl: Double?
    public var urineSG: Double?
    /// The day's total (set, not added).
    public var vomitingEpisodes: Int?
    /// Codes of the rule set's `emergencySymptoms` (thresholds.json) the patient reported.
    public var emergencySymptoms: Set<String>
    public var symptoms: [SymptomEntry]
    public var reactionTests: [ReactionTest]
    public var tappingTests: [TappingTest]
    public var desmopressinDoses: [DesmopressinDose]
    /// Entered by staff only.
    public var labSodium: [LabSodium]
    public var steps: Int?
    public var hrvSdnnMs: Double?
    public var sleepMinutes: Int?
    public var restingHeartRate: Int?

    public init(date: LocalDate, weightMorningKg: Double? = nil, weightEveningKg: Double? = nil,
                fluidIntakeMl: Double? = nil, urineSG: Double? = nil, vomitingEpisodes: Int? = nil,
                emergencySymptoms: Set<String> = [], symptoms: [SymptomEntry] = [],
                reactionTests: [ReactionTest] = [], tappingTests: [TappingTest] = [],
                desmopressinDoses: [DesmopressinDose] = [], labSodium: [LabSodium] = [],
                steps: Int? = nil, hrvSdnnMs: Double? = nil, sleepMinutes: Int? = nil, restingHeartRate: Int? = nil) {
        self.date = date
        self.weightMorningKg = weightMorningKg
        self.weightEveningKg = weightEveningKg
        self.fluidIntakeMl = fluidIntakeMl
        self.urineSG = urineSG
        self.vomitingEpisodes = vomitingEpisodes
        self.emergencySymptoms = emergencySymptoms
        self.symptoms = symptoms
        self.reactionTests = reactionTests
        self.tappingTests = tappingTests
        self.desmopressinDoses = desmopressinDoses
        self.labSodium = labSodium
        self.steps = steps
        self.hrvSdnnMs = hrvSdnnMs
        self.sleepMinutes = sleepMinutes
        self.restingHeartRate = restingHeartRate
    }

    /// Morning check complete = morning weight and a morning symptom entry (docs/clinical-rules.md §6).
    public var morningCheckComplete: Bool {
        weightMorningKg != nil && symptoms.contains { $0.slot == .morning }
    }

    /// Evening check complete = evening weight and an evening symptom entry.
    public var eveningCheckComplete: Bool {
        weightEveningKg != nil && symptoms.contains { $0.slot == .evening }
    }

    /// Whether the patient submitted anything at all this day (staff lab values do not count;
    /// docs/clinical-rules.md §8, `no_data_2d`).
    public var hasPatientData: Bool {
        weightMorningKg != nil || weightEveningKg != nil || fluidIntakeMl != nil || urineSG != nil
            || vomitingEpisodes != nil || !emergencySymptoms.isEmpty || !symptoms.isEmpty
            || !reactionTests.isEmpty || !tappingTests.isEmpty || !desmopressinDoses.isEmpty
            || steps != nil || hrvSdnnMs != nil || sleepMinutes != nil || restingHeartRate != nil
    }

    /// Each per-day list by its name in the day format, with how many items it holds.
    public var listCounts: [(list: String, count: Int)] {
        [("symptoms", symptoms.count), ("reactionTests", reactionTests.count), ("tappingTests", tappingTests.count),
         ("desmopressinDoses", desmopressinDoses.count), ("labSodium", labSodium.count)]
    }

    /// The first list that `after` grows past `limit` items, compared with this day: a list that
    /// does not grow (ids already stored, re-sent as corrections) passes even at or over the limit.
    public func listGrown(to after: DailyEntry, pastLimit limit: Int) -> String? {
        zip(listCounts, after.listCounts).first { $1.count > $0.count && $1.count > limit }?.0.list
    }

    /// The day's lowest lab sodium, nil without lab values.
    public var lowestLabSodium: Double? { labSodium.map(\.value).min() }
}
