extension SignalContext {
    /// Reaction-time group (§3): slowing of a session's median against the patient's baseline.
    /// Yellow: any session reaches the scaled yellow threshold. Red: two sessions of the day at
    /// most `confirmationMinutes` apart both reach the scaled red threshold (one slow session may
    /// be a distraction; a confirmed one is not). Needs a baseline.
    func reactionTimeSignals(into reasons: inout [Reason]) {
        guard let baseline = profile.baselineReactionTimeMs, baseline > 0, !today.reactionTests.isEmpty else { return }
        let sessions = today.reactionTests.map { (time: $0.time.epochSeconds, slowing: $0.slowingPercent(baselineMs: baseline)) }
        let threshold = thresholds.reactionTimePercent
        if let red = threshold.red(scaledBy: factor) {
            let window = thresholds.reactionConfirmationMinutes * 60
            // The best confirmed pair: the highest slowing that two close sessions both reach.
            var confirmed: Double?
            for i in sessions.indices {
                for j in sessions.indices where j > i && abs(sessions[i].time - sessions[j].time) <= window {
                    let pair = min(sessions[i].slowing, sessions[j].slowing)
                    if reaches(pair, red) { confirmed = max(confirmed ?? pair, pair) }
                }
            }
            if let confirmed {
                reasons.append(Reason(code: .reactionTime, level: .red, value: confirmed, threshold: red))
                return
            }
        }
        let slowest = sessions.map(\.slowing).max()!
        if let yellow = threshold.yellow(scaledBy: factor), reaches(slowest, yellow) {
            reasons.append(Reason(code: .reactionTime, level: .yellow, value: slowest, threshold: yellow))
        }
    }
}
