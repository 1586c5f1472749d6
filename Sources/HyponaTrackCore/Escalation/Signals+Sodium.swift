extension SignalContext {
    /// Sodium group (§3, §4): `sodium_low` grades the deficit (normal − the day's lowest lab Na)
    /// against the scaled thresholds; `sodium_fall` (yellow) and `sodium_fall_acute` (red, no
    /// group) measure a fall as in trigger 6. Only lab values count, never the profile's sodium.
    func sodiumSignals(into reasons: inout [Reason]) {
        guard let lowest = today.lowestLabSodium else { return }
        if let r = graded(.sodiumLow, value: thresholds.normalSodium - lowest, thresholds.sodiumDeficit) {
            reasons.append(r)
        }
        guard let fall = sodiumFall() else { return }
        let t = thresholds.triggers
        if reaches(fall.amount, t.fallAtLeast) {
            reasons.append(Reason(code: .sodiumFall, level: .yellow, value: fall.amount, threshold: t.fallAtLeast))
        }
        if reaches(fall.amount, t.acuteFallAtLeast), below(fall.lowest, t.acuteFallSodiumBelow) {
            reasons.append(Reason(code: .sodiumFallAcute, level: .red, value: fall.amount, threshold: t.acuteFallAtLeast))
        }
    }

    /// Trigger 6's fall: the day's lowest Na (if it occurs more than once, its latest reading)
    /// below the highest of the previous calendar days' lab values and the day's readings timed
    /// strictly before that lowest reading. Nil when there is nothing to compare with.
    func sodiumFall() -> (amount: Double, lowest: Double)? {
        var lowestReading: LabSodium?
        for reading in today.labSodium {
            guard let current = lowestReading else { lowestReading = reading; continue }
            if reading.value < current.value || (reading.value == current.value && reading.time > current.time) {
                lowestReading = reading
            }
        }
        guard let lowest = lowestReading else { return nil }
        var highest: Double?
        let earlierDays = [previous, twoBefore].prefix(thresholds.triggers.fallPreviousDays)
        for day in earlierDays { for reading in day?.labSodium ?? [] { highest = max(highest ?? reading.value, reading.value) } }
        for reading in today.labSodium where reading.time < lowest.time {
            highest = max(highest ?? reading.value, reading.value)
        }
        guard let highest else { return nil }
        return (highest - lowest.value, lowest.value)
    }
}
