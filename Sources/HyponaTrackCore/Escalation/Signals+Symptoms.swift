extension SignalContext {
    /// Symptoms group (§3, §4): the day's highest total score S against the scaled thresholds;
    /// `nausea_severe` and `headache_severe` for a single item at its maximum.
    func symptomSignals(into reasons: inout [Reason]) {
        guard !today.symptoms.isEmpty else { return }
        let weights = thresholds.symptomWeights
        var highest = 0, nausea = 0, headache = 0
        for entry in today.symptoms {
            highest = max(highest, entry.totalScore(weights))
            nausea = max(nausea, entry.nausea)
            headache = max(headache, entry.headache)
        }
        if let r = graded(.symptomScore, value: Double(highest), thresholds.symptomScore) { reasons.append(r) }
        let t = thresholds.triggers
        if nausea >= t.nauseaSevereAtLeast {
            reasons.append(Reason(code: .nauseaSevere, level: .yellow, value: Double(nausea), threshold: Double(t.nauseaSevereAtLeast)))
        }
        if headache >= t.headacheSevereAtLeast {
            reasons.append(Reason(code: .headacheSevere, level: .yellow, value: Double(headache), threshold: Double(t.headacheSevereAtLeast)))
        }
    }
}
