/// A "nice" linear scale: bounds and ticks on multiples of a step of 1, 2 or 5 × 10ⁿ
/// (Heckbert, "Nice numbers for graph labels", Graphics Gems 1990), covering every value given.
public struct NiceScale: Sendable, Equatable {
    public let lower: Double
    public let upper: Double
    public let step: Double
    /// Decimals a tick label needs (0 for a step of 5, 3 for 0.005).
    public let decimals: Int
    /// `lower`, `lower + step`, … `upper`, each rounded to `decimals` (no 0.30000000000000004).
    public let ticks: [Double]

    /// - Parameters:
    ///   - values: what must be visible; non-finite values are ignored. None gives 0…1.
    ///   - minimumSpan: the scale is at least this wide (widened around the values' middle).
    ///   - targetTickCount: about this many ticks (at least 2).
    public init(covering values: [Double], minimumSpan: Double = 0, targetTickCount: Int = 5) {
        let finite = values.filter(\.isFinite)
        var lo = finite.min() ?? 0
        var hi = finite.max() ?? 1
        var span = max(hi - lo, minimumSpan.isFinite ? minimumSpan : 0)
        if span <= 0 { span = lo == 0 ? 1 : abs(lo) * 0.2 }
        if hi - lo < span {
            let middle = (lo + hi) / 2
            lo = middle - span / 2
            hi = middle + span / 2
        }
        let (step, exponent) = NiceScale.niceStep(span / Double(max(targetTickCount, 2) - 1))
        let decimals = max(0, -exponent)
        // A small slack so a value a rounding error past a tick does not add a whole step.
        let slack = 1e-9
        let first = (lo / step + slack).rounded(.down)
        let last = (hi / step - slack).rounded(.up)
        let count = max(1, Int(last - first))
        self.step = step
        self.decimals = decimals
        self.ticks = (0...count).map { NiceScale.round((first + Double($0)) * step, decimals) }
        self.lower = ticks.first!
        self.upper = ticks.last!
    }

    /// Where `value` lies between `lower` (0) and `upper` (1); outside the scale beyond 0…1.
    public func fraction(of value: Double) -> Double { (value - lower) / (upper - lower) }

    public func contains(_ value: Double) -> Bool { value >= lower && value <= upper }

    /// The nice step at or above `raw` (1, 2 or 5 × 10ⁿ) and its exponent n.
    static func niceStep(_ raw: Double) -> (Double, Int) {
        var exponent = 0
        while power(exponent) > raw && exponent > -12 { exponent -= 1 }
        while power(exponent + 1) <= raw && exponent < 12 { exponent += 1 }
        let fraction = raw / power(exponent)
        for m in [1.0, 2.0, 5.0] where fraction <= m + 1e-9 { return (m * power(exponent), exponent) }
        return (power(exponent + 1), exponent + 1)
    }

    /// 10ⁿ computed so that negative powers are as exact as a division can make them (0.001, not 0.0009999…).
    static func power(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<abs(n) { p *= 10 }
        return n >= 0 ? p : 1 / p
    }

    static func round(_ value: Double, _ decimals: Int) -> Double {
        let p = power(decimals)
        return (value * p).rounded() / p
    }
}

/// Number formatting without Foundation: a fixed number of decimals, rounded half away from zero.
public enum ChartNumber {
    /// `format(1.35, decimals: 1)` → "1.4"; with `trimZeros`, "1.50" → "1.5" and "4.00" → "4",
    /// but never fewer than `minimumDecimals` ("1.0200" → "1.020" with 3, as urine SG is written).
    public static func format(_ value: Double, decimals: Int, trimZeros: Bool = false, minimumDecimals: Int = 0,
                              separator: String = ".") -> String {
        guard value.isFinite else { return "–" }
        let d = max(0, min(decimals, 9))
        let scaled = (abs(value) * NiceScale.power(d)).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return String(Int(value.rounded())) }
        var digits = String(Int(scaled))
        if d > 0 {
            if digits.count <= d { digits = String(repeating: "0", count: d - digits.count + 1) + digits }
            var whole = String(digits.dropLast(d))
            var fraction = String(digits.suffix(d))
            if trimZeros { while fraction.count > minimumDecimals, fraction.hasSuffix("0") { fraction.removeLast() } }
            if whole.isEmpty { whole = "0" }
            digits = fraction.isEmpty ? whole : whole + separator + fraction
        }
        let negative = value < 0 && digits.contains { $0 != "0" && !separator.contains($0) }
        return negative ? "-" + digits : digits
    }
}
