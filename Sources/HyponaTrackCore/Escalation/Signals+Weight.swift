extension SignalContext {
    /// Weight group (§3): `weight_gain_pct` against the baseline; `weight_gain_24h` against the
    /// previous calendar day's morning weight (no older fallback). Only the morning weight counts.
    func weightSignals(into reasons: inout [Reason]) {
        if let pct = weightChangePercent, let r = graded(.weightGainPercent, value: pct, thresholds.weightGainPercent) {
            reasons.append(r)
        }
        if let w = today.weightMorningKg, let before = previous?.weightMorningKg,
           let r = graded(.weightGain24h, value: w - before, thresholds.weightGain24hKg) {
            reasons.append(r)
        }
    }
}
