import Charts

/// A measured value beside the threshold it crossed, shown at the precision the measurement is
/// reported in (docs/product.md, third round, C: "Reasons in clinical words").
///
/// The threshold is rounded in the direction that keeps the statement true for every value
/// reportable at that precision: "from" (≥) and "below" (<) round up, "at ≤" (≤) and "above" (>)
/// round down. A scaled sodium limit of 130.1 reads "≤ 130", an SG support threshold of 1.0172
/// reads "from 1.018". When rounding puts the value on the wrong side, or rounds it onto its
/// threshold, both get another decimal until they read true ("+1.02 % (yellow from +1.01 %)");
/// a value shown as measured may equal its rounded threshold ("130 mmol/L (red at ≤ 130)").
struct ClinicalPair: Equatable {
    /// How the rule compared the value with its threshold.
    enum Comparison {
        case atLeast, atMost, below, above
    }

    let value: Double
    let threshold: Double
    /// The decimals both are shown with (at least the measurement's own).
    let decimals: Int

    /// The most decimals a pair is shown with: values and thresholds closer than this are
    /// measurement noise (the engine compares with a tolerance of its own).
    static let maximumDecimals = 6

    /// The pair at `decimals` places, or with as many more as it takes to read true.
    init(value: Double, threshold: Double, decimals: Int, comparison: Comparison) {
        var d = decimals
        while d < max(decimals, Self.maximumDecimals) {
            let shown = Self.rounded(value, d), limit = Self.threshold(threshold, d, comparison)
            // Equal-looking is honest only when the value is shown as it is (a whole sodium at
            // "≤ 130"); a value rounded onto its threshold gets its decimals back.
            let rounded = abs(shown - value) > 1e-9
            if Self.holds(shown, limit, comparison) && !(rounded && abs(shown - limit) < 1e-12) { break }
            d += 1
        }
        self.value = Self.rounded(value, d)
        self.threshold = Self.threshold(threshold, d, comparison)
        self.decimals = d
    }

    static func power(_ d: Int) -> Double { (0..<d).reduce(1.0) { r, _ in r * 10 } }

    static func rounded(_ x: Double, _ d: Int) -> Double {
        let scale = Self.power(d)
        return (x * scale).rounded(.toNearestOrAwayFromZero) / scale
    }

    /// The threshold rounded so that the statement holds for every reportable value.
    static func threshold(_ t: Double, _ d: Int, _ comparison: Comparison) -> Double {
        let scale = Self.power(d), x = t * scale
        switch comparison {
        case .atLeast, .below: return (x - 1e-9).rounded(.up) / scale
        case .atMost, .above: return (x + 1e-9).rounded(.down) / scale
        }
    }

    static func holds(_ v: Double, _ t: Double, _ comparison: Comparison) -> Bool {
        switch comparison {
        case .atLeast: return v >= t - 1e-12
        case .atMost: return v <= t + 1e-12
        case .below: return v < t - 1e-12
        case .above: return v > t + 1e-12
        }
    }
}

/// Numbers as a page in `language` writes them: a decimal comma and a point between thousands
/// in German ("1.700", "2,4"), the English point and comma otherwise ("1,700", "2.4"); negative
/// numbers with a real minus sign.
public struct ClinicalNumberFormat: Sendable {
    public let language: Language

    public func number(_ value: Double, decimals: Int) -> String {
        let decimal = language == .de ? "," : "."
        let text = ChartNumber.format(abs(value), decimals: decimals, separator: decimal)
        let whole = text.prefix { $0 != Character(decimal) }, rest = text.dropFirst(whole.count)
        let grouped = whole.count >= 4 ? group(String(whole)) : String(whole)
        let negative = value < 0 && text.contains { $0 != "0" && $0 != Character(decimal) }
        return (negative ? "−" : "") + grouped + rest
    }

    /// With its sign: "+2.4", "−3.1", "0.0".
    public func signed(_ value: Double, decimals: Int) -> String {
        let text = number(value, decimals: decimals)
        return value > 0 && text.contains(where: { $0 != "0" && $0 != "," && $0 != "." }) ? "+" + text : text
    }

    private func group(_ digits: String) -> String {
        let mark: Character = language == .de ? "." : ","
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(mark) }
            out.append(c)
        }
        return out
    }

    public init(language: Language) {
        self.language = language
    }
}

/// Units as a page in `language` writes them: German pages use the DIN forms ("mmol/l", "ml").
public struct ClinicalUnits: Sendable {
    public let language: Language

    public var sodium: String { language == .de ? "mmol/l" : "mmol/L" }
    public var millilitres: String { language == .de ? "ml" : "mL" }

    public init(language: Language) {
        self.language = language
    }
}
