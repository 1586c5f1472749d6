/// A chart of bars, one per category, independent of how it is drawn (`BarChartSVG`): the
/// outcome report's lead-time histogram, alerts per 100 patient-days by POD, and sensitivities
/// with their confidence intervals (a bar with a whisker from `low` to `high`). Each bar may
/// carry several values side by side (live and shadow rules).
public struct BarChart: Sendable, Equatable {
    /// Unique on a page; element ids derive from it.
    public var id: String
    public var title: String
    /// The text alternative (SVG `<desc>`): what the chart shows.
    public var summary: String
    /// Under the axis ("Lead time (days)").
    public var xTitle: String
    /// Beside the axis ("Episodes").
    public var yTitle: String
    public var categories: [String]
    /// One series per colour; each holds one bar per category.
    public var series: [BarSeries]
    /// Values the scale must show (0, and 1 for a share).
    public var include: [Double]
    /// Decimals of values in bar titles.
    public var valueDecimals: Int
    public var decimalSeparator: String
    public var noDataText: String

    public init(id: String, title: String, summary: String, xTitle: String, yTitle: String, categories: [String],
                series: [BarSeries], include: [Double] = [0], valueDecimals: Int = 0, decimalSeparator: String = ".",
                noDataText: String = "No data") {
        self.id = id
        self.title = title
        self.summary = summary
        self.xTitle = xTitle
        self.yTitle = yTitle
        self.categories = categories
        self.series = series
        self.include = include
        self.valueDecimals = valueDecimals
        self.decimalSeparator = decimalSeparator
        self.noDataText = noDataText
    }

    public var hasData: Bool { series.contains { $0.bars.contains { $0 != nil } } }

    /// The y scale: every value and interval end, and `include`; 0…1 when all of them are 0 (a
    /// histogram of no events), not a sliver around 0 with ten-decimal ticks.
    public func yScale() -> NiceScale {
        var values = include
        for s in series { for b in s.bars.compactMap({ $0 }) { values += [b.value] + [b.low, b.high].compactMap { $0 } } }
        if values.allSatisfy({ $0 == 0 }) { values.append(1) }
        return NiceScale(covering: values, minimumSpan: 1e-9, targetTickCount: 5)
    }

    public func format(_ v: Double) -> String {
        ChartNumber.format(v, decimals: valueDecimals, trimZeros: true, separator: decimalSeparator)
    }
}

public struct BarSeries: Sendable, Equatable {
    /// The legend's word ("Live rules").
    public var name: String
    /// One per category; nil: no bar (nothing to show there).
    public var bars: [Bar?]

    public init(name: String, bars: [Bar?]) {
        self.name = name
        self.bars = bars
    }
}

public struct Bar: Sendable, Equatable {
    public var value: Double
    /// An interval drawn as a whisker (a Wilson interval), when known.
    public var low: Double?
    public var high: Double?
    /// The bar's `<title>` ("3 of 4 episodes").
    public var label: String

    public init(value: Double, low: Double? = nil, high: Double? = nil, label: String) {
        self.value = value
        self.low = low
        self.high = high
        self.label = label
    }
}
