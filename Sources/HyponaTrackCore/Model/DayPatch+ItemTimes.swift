extension DayPatch {
    /// How far ahead of the server's clock an item may be timed: a phone may be offline and send
    /// late, never early; a few minutes of clock drift are allowed (docs/product.md, third round, C).
    public static let itemTimeAheadToleranceSeconds = 15.0 * 60

    /// The first item of the patch (symptom entry, reaction or tapping test, desmopressin dose)
    /// timed after `latest` (epoch seconds), with the JSON path of its `time` as the day API names
    /// it ("symptoms[1].time"), or nil.
    public func firstItem(timedAfter latest: Double) -> (field: String, time: Timestamp)? {
        let lists: [(String, [Timestamp])] = [("symptoms", symptoms.map(\.time)), ("reactionTests", reactionTests.map(\.time)),
                                              ("tappingTests", tappingTests.map(\.time)),
                                              ("desmopressinDoses", desmopressinDoses.map(\.time))]
        for (name, times) in lists {
            if let i = times.firstIndex(where: { $0.epochSeconds > latest }) { return ("\(name)[\(i)].time", times[i]) }
        }
        return nil
    }
}
