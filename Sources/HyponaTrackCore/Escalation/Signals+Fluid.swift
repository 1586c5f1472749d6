extension SignalContext {
    /// Fluid group (§3, §4): `fluid_excess` = intake over the limit in percent of the limit;
    /// `fluid_over_limit_2d` = over the limit today and on the previous calendar day.
    /// Both need a limit and are off while DI is active.
    func fluidSignals(into reasons: inout [Reason]) {
        guard let limit = activeFluidLimit, let intake = today.fluidIntakeMl else { return }
        if let r = graded(.fluidExcess, value: (intake - limit) / limit * 100, thresholds.fluidExcessPercent) {
            reasons.append(r)
        }
        if above(intake, limit), let before = previous?.fluidIntakeMl, above(before, limit) {
            reasons.append(Reason(code: .fluidOverLimit2d, level: .yellow, value: intake, threshold: limit))
        }
    }

    /// Urine SG SUPPORT (§5.2): SG at or over its scaled threshold with intake at or over the limit.
    /// Returns the SG and the threshold; the combining step decides whether it counts.
    func urineSGSupport() -> (value: Double, threshold: Double)? {
        guard let limit = activeFluidLimit, let sg = today.urineSG, let intake = today.fluidIntakeMl,
              let threshold = thresholds.urineSGSupport.yellow(scaledBy: factor),
              reaches(sg, threshold), reaches(intake, limit)
        else { return nil }
        return (sg, threshold)
    }

    /// `possible_di` (§4, its own group): weight well under baseline, or dilute urine while
    /// drinking at or over the limit. Off while DI is already known to be active.
    func possibleDI(into reasons: inout [Reason]) {
        guard !profile.diabetesInsipidusActive else { return }
        let t = thresholds.triggers
        if let pct = weightChangePercent, atMost(pct, t.possibleDIWeightChangeAtMost) {
            reasons.append(Reason(code: .possibleDI, level: .yellow, value: pct, threshold: t.possibleDIWeightChangeAtMost))
        } else if let limit = profile.fluidLimitMl, let sg = today.urineSG, let intake = today.fluidIntakeMl,
                  atMost(sg, t.possibleDIUrineSGAtMost), reaches(intake, limit) {
            reasons.append(Reason(code: .possibleDI, level: .yellow, value: sg, threshold: t.possibleDIUrineSGAtMost))
        }
    }
}
