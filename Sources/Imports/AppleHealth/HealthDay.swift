import HyponaTrackCore

/// What an Apple Health export says about one local day, reduced as docs/product.md's
/// "Settled details" (Imports) say. nil: the export holds nothing for that field that day.
public struct HealthDay: Sendable, Equatable {
    public var date: LocalDate
    public var weightMorningKg: Double?
    public var weightEveningKg: Double?
    public var steps: Int?
    public var hrvSdnnMs: Double?
    public var restingHeartRate: Int?
    public var sleepMinutes: Int?

    public init(date: LocalDate, weightMorningKg: Double? = nil, weightEveningKg: Double? = nil, steps: Int? = nil,
                hrvSdnnMs: Double? = nil, restingHeartRate: Int? = nil, sleepMinutes: Int? = nil) {
        self.date = date
        self.weightMorningKg = weightMorningKg
        self.weightEveningKg = weightEveningKg
        self.steps = steps
        self.hrvSdnnMs = hrvSdnnMs
        self.restingHeartRate = restingHeartRate
        self.sleepMinutes = sleepMinutes
    }

    var isEmpty: Bool {
        weightMorningKg == nil && weightEveningKg == nil && steps == nil && hrvSdnnMs == nil && restingHeartRate == nil
            && sleepMinutes == nil
    }
}

/// An export read and reduced: the days, the sodium lab results of `clinical-records/`, and
/// what was skipped.
public struct HealthSummary: Sendable, Equatable {
    public var days: [HealthDay] = []
    public var labs: [SodiumObservation] = []
    /// Records of the types read whose day lies outside the monitoring window.
    public var skippedOutsideWindow = 0
    /// The first `maxListedRefusals` refusals, in document order.
    public var refused: [ImportRefusal] = []
    /// Refusals past `maxListedRefusals`: counted, not listed (an export of a million bad
    /// records must not become a million-line report).
    public var unlistedRefusals = 0
    public static let maxListedRefusals = 200
    /// Records of every type seen in export.xml.
    public var records = 0

    public init() {}

    /// Lists `refusal` while fewer than `maxListedRefusals` are listed, else only counts it.
    public mutating func refuse(_ refusal: ImportRefusal) {
        if refused.count < Self.maxListedRefusals { refused.append(refusal) } else { unlistedRefusals += 1 }
    }
}

/// The rounding the contract names: half away from zero to `per` steps of one (100: 0.01 kg,
/// 10: 0.1 ms). Multiplying by the whole number keeps 45.25 at 452.5 (dividing by 0.1 would not).
@inline(__always)
func rounded(_ v: Double, per: Double) -> Double { (v * per).rounded(.toNearestOrAwayFromZero) / per }

/// Resting heart rate of a day: the median; an even count averages the middle pair; half up to an integer.
func medianHalfUp(_ values: [Double]) -> Int? {
    guard !values.isEmpty else { return nil }
    let s = values.sorted()
    let m = s.count.isMultiple(of: 2) ? (s[s.count / 2 - 1] + s[s.count / 2]) / 2 : s[s.count / 2]
    return Int(exactly: (m + 0.5).rounded(.down))   // nil, not a trap, for a value no Int holds
}

/// Whole minutes (floor) covered by the union of the intervals (epoch seconds, half-open).
func unionMinutes(_ intervals: [(Int, Int)]) -> Int {
    let merged = mergeIntervals(intervals)
    return merged.reduce(0) { $0 + ($1.1 - $1.0) } / 60
}

func mergeIntervals(_ intervals: [(Int, Int)]) -> [(Int, Int)] {
    var out: [(Int, Int)] = []
    for (a, b) in intervals.sorted(by: { $0.0 < $1.0 }) where b > a {
        if let last = out.last, a <= last.1 { out[out.count - 1].1 = max(last.1, b) } else { out.append((a, b)) }
    }
    return out
}
