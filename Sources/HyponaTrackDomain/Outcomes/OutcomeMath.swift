import Foundation
import HyponaTrackCore

/// A share with its 95 % Wilson score interval (docs/clinical-rules.md, "Outcomes"): `count` of
/// `total`; the value and interval are nil when `total` is 0.
public struct Proportion: Sendable, Equatable {
    public var count: Int
    public var total: Int
    public var value: Double?
    public var low: Double?
    public var high: Double?

    /// z of the two-sided 95 % interval (docs/product.md, settled O).
    public static let z = 1.959964

    public init(_ count: Int, of total: Int) {
        self.count = count
        self.total = total
        guard total > 0 else { return }
        let n = Double(total), p = Double(count) / n, z2 = Self.z * Self.z
        let centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        let half = Self.z / (1 + z2 / n) * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        value = p
        low = max(0, centre - half)
        high = min(1, centre + half)
    }
}

/// The outcome report's rules, plain functions over dates and levels (docs/clinical-rules.md,
/// "Outcomes", where each is defined in words).
enum OutcomeMath {
    /// The lead time of the warning before an episode on `episode`: `episode` − the first day in
    /// [episode − lookback, episode − 1] whose level `warns`; nil when no such day.
    static func lead(before episode: LocalDate, lookback: Int, levels: [LocalDate: Level], warns: (Level) -> Bool) -> Int? {
        for back in stride(from: lookback, through: 1, by: -1) {
            if let level = levels[episode.adding(days: -back)], warns(level) { return back }
        }
        return nil
    }

    static func yellowOrRed(_ level: Level) -> Bool { level == .yellow || level == .red }
    static func red(_ level: Level) -> Bool { level == .red }

    /// Whether an alert whose first day is `first` is followed by an episode: one falls 1 to
    /// `lookback` days after it.
    static func followed(_ first: LocalDate, episodes: [LocalDate], lookback: Int) -> Bool {
        episodes.contains { e in
            let gap = e.daysSinceEpoch - first.daysSinceEpoch
            return gap >= 1 && gap <= lookback
        }
    }

    /// Whether an alert is old enough for its positive predictive value: `today` − its first
    /// day ≥ `lookback` (younger alerts are left out).
    static func matured(_ first: LocalDate, today: LocalDate, lookback: Int) -> Bool {
        today.daysSinceEpoch - first.daysSinceEpoch >= lookback
    }

    /// `count` per 100 of `days`; nil without days.
    static func per100(_ count: Int, _ days: Int) -> Double? { days == 0 ? nil : Double(count) * 100 / Double(days) }

    /// Counts of each lead time 1…lookback (index 0 is a lead of 1 day).
    static func histogram(_ leads: [Int], lookback: Int) -> [Int] {
        var out = [Int](repeating: 0, count: lookback)
        for lead in leads where lead >= 1 && lead <= lookback { out[lead - 1] += 1 }
        return out
    }
}
