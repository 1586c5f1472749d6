/// One symptom questionnaire (docs/clinical-rules.md §3): five items 0–3 and the VAS 0–10
/// (10 = best well-being). All six are required in an entry.
public struct SymptomEntry: Sendable, Equatable {
    public enum Slot: String, Sendable, CaseIterable { case morning, evening }

    public var id: String
    public var time: Timestamp
    public var slot: Slot
    public var nausea: Int
    public var headache: Int
    public var fatigue: Int
    public var confusion: Int
    public var muscleCramps: Int
    public var vas: Int

    public init(id: String, time: Timestamp, slot: Slot, nausea: Int, headache: Int, fatigue: Int,
                confusion: Int, muscleCramps: Int, vas: Int) {
        self.id = id
        self.time = time
        self.slot = slot
        self.nausea = nausea
        self.headache = headache
        self.fatigue = fatigue
        self.confusion = confusion
        self.muscleCramps = muscleCramps
        self.vas = vas
    }

    /// The total score S with the configured weights (default range 0–52).
    public func totalScore(_ weights: SymptomScoreWeights) -> Int {
        weights.nausea * nausea + weights.headache * headache + weights.fatigue * fatigue
            + weights.confusion * confusion + weights.muscleCramps * muscleCramps + max(0, weights.vasBest - vas)
    }
}

/// A reaction-time session of the app's test.
public struct ReactionTest: Sendable, Equatable {
    public var id: String
    public var time: Timestamp
    public var medianMs: Double
    public var meanMs: Double
    public var errors: Int

    public init(id: String, time: Timestamp, medianMs: Double, meanMs: Double, errors: Int) {
        self.id = id
        self.time = time
        self.medianMs = medianMs
        self.meanMs = meanMs
        self.errors = errors
    }

    /// Slowing of the median against the patient's baseline, in percent.
    public func slowingPercent(baselineMs: Double) -> Double { (medianMs - baselineMs) / baselineMs * 100 }
}

/// A finger-tapping test (stored and synced; not scored by the rules).
public struct TappingTest: Sendable, Equatable {
    public var id: String
    public var time: Timestamp
    public var taps: Int
    public var durationSeconds: Double

    public init(id: String, time: Timestamp, taps: Int, durationSeconds: Double) {
        self.id = id
        self.time = time
        self.taps = taps
        self.durationSeconds = durationSeconds
    }
}

/// A recorded desmopressin dose.
public struct DesmopressinDose: Sendable, Equatable {
    public var id: String
    public var time: Timestamp
    public var doseMcg: Double

    public init(id: String, time: Timestamp, doseMcg: Double) {
        self.id = id
        self.time = time
        self.doseMcg = doseMcg
    }
}

/// A lab sodium value, entered by staff (mmol/L).
public struct LabSodium: Sendable, Equatable {
    public var id: String?
    public var time: Timestamp
    public var value: Double

    public init(id: String? = nil, time: Timestamp, value: Double) {
        self.id = id
        self.time = time
        self.value = value
    }
}

/// What a day's four client item lists have in common: the id the app gives an item (the key
/// a later submission replaces it by) and its time. Code over all four lists is generic over
/// this protocol rather than taking key paths: a key path passed to a function is followed at
/// run time (`KeyPath._projectReadOnly`, with generic metadata looked up per access), while a
/// protocol requirement in specialized code is a plain field access.
public protocol DayItem: Sendable, Equatable {
    var id: String { get }
    var time: Timestamp { get set }
}

extension SymptomEntry: DayItem {}
extension ReactionTest: DayItem {}
extension TappingTest: DayItem {}
extension DesmopressinDose: DayItem {}
