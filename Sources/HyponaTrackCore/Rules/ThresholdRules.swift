import HTJSON

/// A §3 threshold: `adjusted = reference + (standard − reference) × f` (docs/clinical-rules.md §2).
public struct ScaledThreshold: Sendable, Equatable {
    public var reference: Double
    public var yellow: Double?
    public var red: Double?

    public func yellow(scaledBy f: Double) -> Double? { yellow.map { reference + ($0 - reference) * f } }
    public func red(scaledBy f: Double) -> Double? { red.map { reference + ($0 - reference) * f } }
}

/// Weights of the symptom score S (docs/clinical-rules.md §3).
public struct SymptomScoreWeights: Sendable, Equatable {
    public var nausea: Int
    public var headache: Int
    public var fatigue: Int
    public var confusion: Int
    public var muscleCramps: Int
    /// S adds `max(0, vasBest − vas)`.
    public var vasBest: Int

    public init(nausea: Int, headache: Int, fatigue: Int, confusion: Int, muscleCramps: Int, vasBest: Int) {
        self.nausea = nausea
        self.headache = headache
        self.fatigue = fatigue
        self.confusion = confusion
        self.muscleCramps = muscleCramps
        self.vasBest = vasBest
    }
}

/// Thresholds, single-item triggers and the combining rule (docs/clinical-rules.md §2–§5), from
/// `config/thresholds.json`.
public struct ThresholdRules: Sendable, Equatable {
    public var criticalWindow: ClosedRange<Int>
    public var windowFactor: Double
    /// Values within this of a threshold reach it (binary rounding must never move a value
    /// that equals a threshold on paper below it).
    public var tolerance: Double

    public var weightGainPercent: ScaledThreshold
    public var weightGain24hKg: ScaledThreshold
    public var fluidExcessPercent: ScaledThreshold
    public var symptomScore: ScaledThreshold
    public var reactionTimePercent: ScaledThreshold
    /// Two red sessions confirm each other when at most this many minutes apart.
    public var reactionConfirmationMinutes: Double
    /// Deficit = normalSodium − lowest Na.
    public var sodiumDeficit: ScaledThreshold
    public var normalSodium: Double
    /// SG support threshold is the `yellow` value.
    public var urineSGSupport: ScaledThreshold
    public var symptomWeights: SymptomScoreWeights

    public var triggers: TriggerRules
    /// The codes a patient may report as emergency symptoms, in file order; any of them makes the
    /// day red (`emergency_symptom`, docs/clinical-rules.md §4). They are also the REDCap choices
    /// of `emergency_symptoms`.
    public var emergencySymptoms: [String]
    /// Signal groups in reporting order: name → codes.
    public var groups: [(name: String, codes: [String])]
    /// This many counted groups make `multiple_yellow` red.
    public var multipleYellowGroups: Int

    public static func == (a: ThresholdRules, b: ThresholdRules) -> Bool {
        a.criticalWindow == b.criticalWindow && a.windowFactor == b.windowFactor && a.tolerance == b.tolerance
            && a.weightGainPercent == b.weightGainPercent && a.weightGain24hKg == b.weightGain24hKg
            && a.fluidExcessPercent == b.fluidExcessPercent && a.symptomScore == b.symptomScore
            && a.reactionTimePercent == b.reactionTimePercent
            && a.reactionConfirmationMinutes == b.reactionConfirmationMinutes
            && a.sodiumDeficit == b.sodiumDeficit && a.normalSodium == b.normalSodium
            && a.urineSGSupport == b.urineSGSupport && a.symptomWeights == b.symptomWeights
            && a.triggers == b.triggers && a.emergencySymptoms == b.emergencySymptoms
            && a.multipleYellowGroups == b.multipleYellowGroups
            && a.groups.map(\.name) == b.groups.map(\.name) && a.groups.map(\.codes) == b.groups.map(\.codes)
    }

    /// The group a code counts in, nil for the red-only triggers.
    public func group(of code: String) -> String? { groups.first { $0.codes.contains(code) }?.name }

    /// Codes that may appear in `groups`.
    static let groupableCodes: Set<String> = [
        "weight_gain_pct", "weight_gain_24h", "fluid_excess", "fluid_over_limit_2d", "symptom_score",
        "nausea_severe", "headache_severe", "reaction_time", "sodium_low", "sodium_fall", "possible_di",
    ]

    static func parse(_ json: JSONValue) throws(FieldError) -> ThresholdRules {
        let root = try ObjectReader(json)
        _ = root.raw("description")
        let window = try ObjectReader(try root.required("criticalWindow", .any), path: "criticalWindow")
        let fromPod = try window.required("fromPod", .integer(0...60))
        let toPod = try window.required("toPod", .integer(0...60))
        guard fromPod <= toPod else { throw FieldError.invalid("criticalWindow.toPod", "must not be before fromPod") }
        let factor = try window.required("factor", .number(0.1...1.0))
        try window.finish()
        // Positive and far below any measurement's resolution: 0 lets binary rounding move a value
        // that is exactly on a threshold below it (72.8 kg on 70 kg is +4 %, computed as 3.99…);
        // a large one fires signals for values that are below their threshold.
        let tolerance = try root.required("comparisonTolerance", .number(1e-12...1e-6))

        let scaled = try ObjectReader(try root.required("scaled", .any), path: "scaled")
        func threshold(_ code: String, yellowKey: String = "yellow", redAllowed: Bool = true,
                       extra: (ObjectReader) throws(FieldError) -> Void = { _ in }) throws(FieldError) -> ScaledThreshold {
            let t = try ObjectReader(try scaled.required(code, .any), path: scaled.fieldPath(code))
            let result = ScaledThreshold(reference: try t.required("reference", .number(-1000...1000)),
                                         yellow: try t.optional(yellowKey, .number(-1000...100_000)),
                                         red: redAllowed ? try t.optional("red", .number(-1000...100_000)) : nil)
            try extra(t)
            try t.finish()
            if result.yellow == nil && result.red == nil {
                throw FieldError.invalid(t.path, "needs a yellow or a red threshold")
            }
            // Every scaled signal is a distance above its reference (a gain, an excess, a drop
            // below normal sodium): a threshold at or below it would fire on normal values.
            for (key, value) in [(yellowKey, result.yellow), ("red", result.red)] {
                if let value, value <= result.reference {
                    throw FieldError.invalid(t.fieldPath(key), "must lie above the reference \(result.reference)")
                }
            }
            if let y = result.yellow, let r = result.red, r < y {
                throw FieldError.invalid(t.fieldPath("red"), "must lie further from the reference than yellow")
            }
            return result
        }
        let weightPct = try threshold("weight_gain_pct")
        let weight24h = try threshold("weight_gain_24h")
        let fluid = try threshold("fluid_excess")
        let symptom = try threshold("symptom_score")
        var confirmation = 60.0
        let reaction = try threshold("reaction_time") { r throws(FieldError) in
            confirmation = try r.required("confirmationMinutes", .number(1...1440))
        }
        var normalSodium = 140.0
        let sodium = try threshold("sodium_low") { r throws(FieldError) in
            normalSodium = try r.required("normalSodium", .number(100...180))
        }
        let sg = try threshold("urine_sg_support", yellowKey: "support", redAllowed: false)
        try scaled.finish()

        let weightsReader = try ObjectReader(try root.required("symptomScore", .any), path: "symptomScore")
        let w = try ObjectReader(try weightsReader.required("weights", .any), path: "symptomScore.weights")
        let item = JSONRead.integer(0...20)
        let weights = SymptomScoreWeights(nausea: try w.required("nausea", item), headache: try w.required("headache", item),
                                          fatigue: try w.required("fatigue", item), confusion: try w.required("confusion", item),
                                          muscleCramps: try w.required("muscleCramps", item),
                                          vasBest: try weightsReader.required("vasBest", .integer(0...10)))
        try w.finish()
        try weightsReader.finish()

        let triggers = try TriggerRules.parse(try root.required("triggers", .any), path: "triggers")
        let emergency = try emergencySymptoms(root)

        let groupsReader = try ObjectReader(try root.required("groups", .any), path: "groups")
        var groups: [(name: String, codes: [String])] = []
        var seen = Set<String>()
        for name in groupsReader.object.keys {
            let codes = try groupsReader.optionalArray(name) { v, p throws(FieldError) in
                try JSONRead.oneOf(Array(groupableCodes).sorted()).convert(v, p)
            } ?? []
            for code in codes where !seen.insert(code).inserted {
                throw FieldError.invalid(groupsReader.fieldPath(name), "\(code) is already in another group")
            }
            groups.append((name, codes))
        }
        if let missing = groupableCodes.subtracting(seen).sorted().first {
            throw FieldError.invalid("groups", "\(missing) belongs to no group")
        }
        let combining = try ObjectReader(try root.required("combining", .any), path: "combining")
        let multiple = try combining.required("redGroupCount", .integer(1...20))
        try combining.finish()
        try root.finish()
        return ThresholdRules(criticalWindow: fromPod...toPod, windowFactor: factor, tolerance: tolerance,
                              weightGainPercent: weightPct, weightGain24hKg: weight24h, fluidExcessPercent: fluid,
                              symptomScore: symptom, reactionTimePercent: reaction,
                              reactionConfirmationMinutes: confirmation, sodiumDeficit: sodium,
                              normalSodium: normalSodium, urineSGSupport: sg, symptomWeights: weights,
                              triggers: triggers, emergencySymptoms: emergency, groups: groups,
                              multipleYellowGroups: multiple)
    }

    /// `emergencySymptoms`: 1–10 distinct codes of 1–32 lower-case letters, digits and `_` (the
    /// characters a REDCap checkbox code may hold; the codes are the REDCap choices as they are).
    static func emergencySymptoms(_ root: ObjectReader) throws(FieldError) -> [String] {
        let code = JSONRead.string(length: 1...32, expected: "a code of lower-case letters, digits and _") {
            $0.utf8.allSatisfy(ValueRanges.isLowerCodeByte)
        }
        guard let codes = try root.optionalArray("emergencySymptoms", maxCount: 10, code.convert) else {
            throw FieldError.invalid("emergencySymptoms", "is required")
        }
        guard !codes.isEmpty else { throw FieldError.invalid("emergencySymptoms", "must list at least one code") }
        var seen = Set<String>()
        for (i, c) in codes.enumerated() where !seen.insert(c).inserted {
            throw FieldError.invalid(jsonPath("emergencySymptoms", index: i), "\"\(c)\" is listed twice")
        }
        return codes
    }
}

/// The §4 single-item triggers. Never scaled.
public struct TriggerRules: Sendable, Equatable {
    /// `confusion`: any entry with confusion ≥ this.
    public var confusionAtLeast: Int
    /// `vomiting`: episodes ≥ this …
    public var vomitingEpisodesAtLeast: Int
    /// … or ≥ this with a lab Na below `vomitingSodiumBelow` the same day.
    public var vomitingWithLowSodiumAtLeast: Int
    public var vomitingSodiumBelow: Double
    /// `sodium_profound`: lab Na ≤ this.
    public var sodiumProfoundAtMost: Double
    /// `sodium_symptomatic`: lab Na below this with a moderately severe symptom.
    public var symptomaticSodiumBelow: Double
    public var symptomaticNauseaAtLeast: Int
    public var symptomaticHeadacheAtLeast: Int
    public var symptomaticConfusionAtLeast: Int
    /// `sodium_fall_acute`: a fall ≥ this to a Na below `acuteFallSodiumBelow`.
    public var acuteFallAtLeast: Double
    public var acuteFallSodiumBelow: Double
    /// How many previous calendar days of lab values a fall is measured against.
    public var fallPreviousDays: Int
    /// `sodium_fall` (yellow): a fall ≥ this, whatever the Na.
    public var fallAtLeast: Double
    public var nauseaSevereAtLeast: Int
    public var headacheSevereAtLeast: Int
    /// `possible_di`: weight change ≤ this percent vs baseline …
    public var possibleDIWeightChangeAtMost: Double
    /// … or urine SG ≤ this with intake at or over the limit.
    public var possibleDIUrineSGAtMost: Double

    static func parse(_ json: JSONValue, path: String) throws(FieldError) -> TriggerRules {
        let root = try ObjectReader(json, path: path)
        func section(_ key: String) throws(FieldError) -> ObjectReader {
            try ObjectReader(try root.required(key, .any), path: root.fieldPath(key))
        }
        // A symptom item's trigger level: 0 would fire on every entry, symptom-free ones too.
        let item = JSONRead.integer(1...3)
        let na = JSONRead.number(100...180)
        let confusion = try section("confusion")
        let vomiting = try section("vomiting")
        let profound = try section("sodium_profound")
        let symptomatic = try section("sodium_symptomatic")
        let acute = try section("sodium_fall_acute")
        let fall = try section("sodium_fall")
        let nausea = try section("nausea_severe")
        let headache = try section("headache_severe")
        let di = try section("possible_di")
        let rules = TriggerRules(
            confusionAtLeast: try confusion.required("atLeast", item),
            vomitingEpisodesAtLeast: try vomiting.required("episodesAtLeast", .integer(1...50)),
            vomitingWithLowSodiumAtLeast: try vomiting.required("episodesWithLowSodiumAtLeast", .integer(1...50)),
            vomitingSodiumBelow: try vomiting.required("lowSodiumBelow", na),
            sodiumProfoundAtMost: try profound.required("atMost", na),
            symptomaticSodiumBelow: try symptomatic.required("sodiumBelow", na),
            symptomaticNauseaAtLeast: try symptomatic.required("nauseaAtLeast", item),
            symptomaticHeadacheAtLeast: try symptomatic.required("headacheAtLeast", item),
            symptomaticConfusionAtLeast: try symptomatic.required("confusionAtLeast", item),
            acuteFallAtLeast: try acute.required("fallAtLeast", .number(0.1...80)),
            acuteFallSodiumBelow: try acute.required("sodiumBelow", na),
            // The engine holds the day and the two before it (EscalationEngine), no more.
            fallPreviousDays: try acute.required("previousDays", .integer(0...2)),
            fallAtLeast: try fall.required("fallAtLeast", .number(0.1...80)),
            nauseaSevereAtLeast: try nausea.required("atLeast", item),
            headacheSevereAtLeast: try headache.required("atLeast", item),
            possibleDIWeightChangeAtMost: try di.required("weightChangePctAtMost", .number(-50...0)),
            possibleDIUrineSGAtMost: try di.required("urineSGAtMost", .number(1.000...1.040)))
        for r in [confusion, vomiting, profound, symptomatic, acute, fall, nausea, headache, di] { try r.finish() }
        try root.finish()
        return rules
    }
}
