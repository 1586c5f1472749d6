/// What a signal rule may read: the day, the two calendar days before it, the profile and the
/// scaling factor f. Comparisons go through `reaches` and friends, which apply the configured
/// tolerance so that a value equal to a threshold on paper reaches it (docs/clinical-rules.md §2).
struct SignalContext {
    let profile: PatientProfile
    let today: DailyEntry
    let previous: DailyEntry?
    let twoBefore: DailyEntry?
    let factor: Double
    let thresholds: ThresholdRules

    var tolerance: Double { thresholds.tolerance }

    /// `value ≥ threshold`
    func reaches(_ value: Double, _ threshold: Double) -> Bool { value >= threshold - tolerance }
    /// `value ≤ threshold`
    func atMost(_ value: Double, _ threshold: Double) -> Bool { value <= threshold + tolerance }
    /// `value < threshold`
    func below(_ value: Double, _ threshold: Double) -> Bool { value < threshold - tolerance }
    /// `value > threshold`
    func above(_ value: Double, _ threshold: Double) -> Bool { value > threshold + tolerance }

    /// A §3 signal with yellow and/or red thresholds, scaled by f, reported once at the highest
    /// level it reaches.
    func graded(_ code: ReasonCode, value: Double, _ threshold: ScaledThreshold) -> Reason? {
        if let red = threshold.red(scaledBy: factor), reaches(value, red) {
            return Reason(code: code, level: .red, value: value, threshold: red)
        }
        if let yellow = threshold.yellow(scaledBy: factor), reaches(value, yellow) {
            return Reason(code: code, level: .yellow, value: value, threshold: yellow)
        }
        return nil
    }

    /// The fluid limit when the fluid rules apply: a limit is set and DI is not active.
    var activeFluidLimit: Double? {
        guard let limit = profile.fluidLimitMl, limit > 0, !profile.diabetesInsipidusActive else { return nil }
        return limit
    }

    /// Morning weight change against the baseline, percent.
    var weightChangePercent: Double? {
        today.weightMorningKg.map(profile.weightChangePercent)
    }
}
