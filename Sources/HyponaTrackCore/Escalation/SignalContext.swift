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

    /// Whether any rule of §3–§4 has the data it reads on the day itself (every rule needs a
    /// value of the day; the previous days only add to it). Each line is the guard of its rules;
    /// what is stored but never scored (evening weight, tapping tests, desmopressin doses, steps,
    /// HRV, sleep, resting heart rate) is absent, and urine SG is read only together with the
    /// fluid intake and limit (SG support, `possible_di`).
    var anyRuleHasData: Bool {
        today.weightMorningKg != nil                                              // weight group, possible_di
            || (today.fluidIntakeMl != nil && activeFluidLimit != nil)            // fluid group, SG support, possible_di
            || !today.symptoms.isEmpty                                            // symptom group, confusion
            || (!today.reactionTests.isEmpty && (profile.baselineReactionTimeMs ?? 0) > 0)   // reaction time
            || !today.labSodium.isEmpty                                           // sodium group and triggers
            || today.vomitingEpisodes != nil                                      // vomiting
            || !today.emergencySymptoms.isEmpty                                   // emergency_symptom
    }

    /// Morning weight change against the baseline, percent.
    var weightChangePercent: Double? {
        today.weightMorningKg.map(profile.weightChangePercent)
    }
}
