extension SignalContext {
    /// The red single-item triggers of §4 (never scaled, in no group). `sodium_fall_acute` is
    /// decided with the other sodium signals.
    func singleItemTriggers(into reasons: inout [Reason]) {
        let t = thresholds.triggers
        let lowestNa = today.lowestLabSodium

        // 1. Any new confusion.
        let confusion = today.symptoms.map(\.confusion).max() ?? 0
        if !today.symptoms.isEmpty, confusion >= t.confusionAtLeast {
            reasons.append(Reason(code: .confusion, level: .red, value: Double(confusion), threshold: Double(t.confusionAtLeast)))
        }
        // 2. Repeated vomiting, or any vomiting with a low lab sodium the same day.
        if let episodes = today.vomitingEpisodes {
            if episodes >= t.vomitingEpisodesAtLeast {
                reasons.append(Reason(code: .vomiting, level: .red, value: Double(episodes), threshold: Double(t.vomitingEpisodesAtLeast)))
            } else if episodes >= t.vomitingWithLowSodiumAtLeast, let na = lowestNa, below(na, t.vomitingSodiumBelow) {
                reasons.append(Reason(code: .vomiting, level: .red, value: Double(episodes), threshold: Double(t.vomitingWithLowSodiumAtLeast)))
            }
        }
        // 3. An emergency symptom: the patient is told to call emergency services.
        if !today.emergencySymptoms.isEmpty {
            reasons.append(Reason(code: .emergencySymptom, level: .red, value: Double(today.emergencySymptoms.count), threshold: 1))
        }
        guard let na = lowestNa else { return }
        // 4. Profound hyponatremia.
        if atMost(na, t.sodiumProfoundAtMost) {
            reasons.append(Reason(code: .sodiumProfound, level: .red, value: na, threshold: t.sodiumProfoundAtMost))
        }
        // 5. Low sodium with a moderately severe symptom the same day.
        if below(na, t.symptomaticSodiumBelow), today.symptoms.contains(where: {
            $0.nausea >= t.symptomaticNauseaAtLeast || $0.headache >= t.symptomaticHeadacheAtLeast
                || $0.confusion >= t.symptomaticConfusionAtLeast
        }) {
            reasons.append(Reason(code: .sodiumSymptomatic, level: .red, value: na, threshold: t.symptomaticSodiumBelow))
        }
    }
}
