/// One trend chart, independent of how it is drawn: the browser console renders it as inline SVG
/// (`ChartSVG`), the PDF report with cairo. Both go through `ChartLayout`, so the scale, the
/// threshold lines and the point positions are computed once and the two pictures agree.
///
/// The x axis counts days (post-operative days in this project): day `d` is a slot one unit wide
/// centred on `d`, so a daily value sits at `x = d` and a timed reading may sit inside its slot.
public struct Chart: Sendable, Equatable {
    /// A short identifier, unique on a page (`weight`, `sodium`); renderers derive element ids from it.
    public var id: String
    /// The visible heading and the SVG `<title>`.
    public var title: String
    /// The text alternative: what the chart shows and what its thresholds mean (SVG `<desc>`).
    public var summary: String
    public var xAxis: ChartXAxis
    public var yAxis: ChartYAxis
    public var series: [ChartSeries]
    /// Drawn as dashed lines labelled with words; always inside the y scale.
    public var thresholds: [ChartThreshold]
    /// Shaded day ranges (the critical window).
    public var markers: [ChartMarker]
    /// Shown in the plot when no series has a point.
    public var noDataText: String
    /// "." in English, "," in German.
    public var decimalSeparator: String
    /// The words for a point's flag in the page's language ("Gelb"); the flag's name without one.
    public var flagWords: [ThresholdKind: String]

    public init(id: String, title: String, summary: String, xAxis: ChartXAxis, yAxis: ChartYAxis,
                series: [ChartSeries], thresholds: [ChartThreshold] = [], markers: [ChartMarker] = [],
                noDataText: String = "No data recorded", decimalSeparator: String = ".", flagWords: [ThresholdKind: String] = [:]) {
        self.id = id
        self.title = title
        self.summary = summary
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.series = series
        self.thresholds = thresholds
        self.markers = markers
        self.noDataText = noDataText
        self.decimalSeparator = decimalSeparator
        self.flagWords = flagWords
    }

    /// A point's flag as people read it (`flagWords`, else "yellow", "red").
    public func word(for flag: ThresholdKind) -> String { flagWords[flag] ?? flag.rawValue }

    /// True when no series holds a point.
    public var hasData: Bool { series.contains { !$0.points.isEmpty } }

    /// The y scale: covers every finite point, every threshold and `yAxis.include`, at least
    /// `yAxis.minimumSpan` wide. `ChartLayout` computes it once from here.
    /// A chart with no point and no threshold covers `yAxis.emptyRange` instead of `include`.
    public func yScale(targetTickCount: Int = 5) -> NiceScale {
        var values: [Double] = []
        for s in series { values += s.points.map(\.y) }
        for t in thresholds { values += t.segments.map(\.y) }
        values += values.isEmpty && !yAxis.emptyRange.isEmpty ? yAxis.emptyRange : yAxis.include
        return NiceScale(covering: values, minimumSpan: yAxis.minimumSpan, targetTickCount: targetTickCount)
    }

    /// Formats a value for people (point titles, tables) with the axis' decimals.
    public func format(_ value: Double, decimals: Int? = nil, trimZeros: Bool = false) -> String {
        ChartNumber.format(value, decimals: decimals ?? yAxis.valueDecimals, trimZeros: trimZeros, minimumDecimals: yAxis.minimumDecimals,
                           separator: decimalSeparator)
    }
}

/// The day axis: `firstDay…lastDay` (inclusive), one label per day.
public struct ChartXAxis: Sendable, Equatable {
    /// Under the axis: "Post-operative day", "Date".
    public var title: String
    public var firstDay: Int
    public var lastDay: Int
    /// Short labels under the ticks ("5", "03-07"), one per day from `firstDay`.
    public var dayLabels: [String]
    /// Long names for point titles and table rows ("POD 5, 2026-03-07"), one per day.
    public var dayNames: [String]

    /// - Precondition: `lastDay >= firstDay`; missing labels fall back to the day number.
    public init(title: String, firstDay: Int, lastDay: Int, dayLabels: [String] = [], dayNames: [String] = []) {
        self.title = title
        self.firstDay = firstDay
        self.lastDay = max(lastDay, firstDay)
        self.dayLabels = dayLabels
        self.dayNames = dayNames
    }

    public var dayCount: Int { lastDay - firstDay + 1 }
    /// The x range drawn: half a day beyond the first and last day.
    public var domain: ClosedRange<Double> { (Double(firstDay) - 0.5)...(Double(lastDay) + 0.5) }

    public func label(ofDay day: Int) -> String {
        let i = day - firstDay
        return dayLabels.indices.contains(i) ? dayLabels[i] : String(day)
    }

    public func name(ofDay day: Int) -> String {
        let i = day - firstDay
        return dayNames.indices.contains(i) ? dayNames[i] : label(ofDay: day)
    }

    /// The day whose slot holds `x`.
    public func day(at x: Double) -> Int { Int((x).rounded(.toNearestOrAwayFromZero)) }
}

/// The value axis. The scale itself is computed (`Chart.yScale`).
public struct ChartYAxis: Sendable, Equatable {
    /// Beside the axis: "Weight change from baseline".
    public var title: String
    /// "%", "mL", "mmol/L", "" for a score or SG.
    public var unit: String
    /// Values the scale must show besides the data and thresholds (0 on a change axis).
    public var include: [Double]
    /// The smallest span of the scale, so a flat series does not magnify noise.
    public var minimumSpan: Double
    /// Decimals of values in point titles and tables (ticks use the scale's own).
    public var valueDecimals: Int
    /// What the scale covers when there is nothing else to cover (no point, no threshold): the
    /// quantity's usual range, so an empty chart reads like the others ("No data recorded" on
    /// its ordinary axis) instead of a span around 0 (negative millilitres). Empty: `include`.
    public var emptyRange: [Double]
    /// Ticks, values and threshold cells keep at least this many decimals (urine SG is written
    /// 1.010, not 1.01).
    public var minimumDecimals: Int

    public init(title: String, unit: String, include: [Double] = [], minimumSpan: Double = 0, valueDecimals: Int = 0,
                emptyRange: [Double] = [], minimumDecimals: Int = 0) {
        self.title = title
        self.unit = unit
        self.include = include
        self.minimumSpan = minimumSpan
        self.valueDecimals = valueDecimals
        self.emptyRange = emptyRange
        self.minimumDecimals = minimumDecimals
    }
}

/// One data series. Points are drawn in x order and joined by a line when their days are at most
/// `joinsDaysApart` apart, so a missing day shows as a gap.
public struct ChartSeries: Sendable, Equatable {
    public var name: String
    public var points: [ChartPoint]
    /// Neighbours on days at most this far apart are joined (1: consecutive days; 0: the same
    /// day only); nil draws points only.
    public var joinsDaysApart: Int?

    /// Non-finite values are dropped; points are sorted by x.
    public init(name: String, points: [ChartPoint], joinsDaysApart: Int? = 1) {
        self.name = name
        self.points = points.filter { $0.x.isFinite && $0.y.isFinite }.sorted { $0.x < $1.x }
        self.joinsDaysApart = joinsDaysApart
    }
}

/// A measured value.
public struct ChartPoint: Sendable, Equatable {
    public var x: Double
    public var y: Double
    /// The level this value reached, as the evaluation judged it (drawn larger, named in its title).
    public var flag: ThresholdKind?
    /// Extra words for its title and table cell, e.g. the time of a reading ("08:15").
    public var note: String?

    public init(x: Double, y: Double, flag: ThresholdKind? = nil, note: String? = nil) {
        self.x = x
        self.y = y
        self.flag = flag
        self.note = note
    }
}

/// What a threshold line means.
public enum ThresholdKind: String, Sendable, Equatable, CaseIterable {
    /// A neutral reference such as a fluid limit.
    case reference
    case yellow
    case red
}

/// Which side of a threshold is the alarming one.
public enum ThresholdDirection: String, Sendable, Equatable {
    case atOrAbove
    case atOrBelow

    /// "≥" or "≤".
    public var symbol: String { self == .atOrAbove ? "≥" : "≤" }
}

/// A threshold as a step line over the days: scaled thresholds change inside the critical window.
public struct ChartThreshold: Sendable, Equatable {
    public var kind: ThresholdKind
    public var direction: ThresholdDirection
    /// The word written at the end of the line ("yellow", "red", "limit").
    public var tag: String
    /// The legend's full sentence, with the values ("red ≥ 3.6 % on POD 5–9, ≥ 4 % otherwise").
    public var label: String
    public var segments: [ThresholdSegment]

    public init(kind: ThresholdKind, direction: ThresholdDirection, tag: String, label: String, segments: [ThresholdSegment]) {
        self.kind = kind
        self.direction = direction
        self.tag = tag
        self.label = label
        self.segments = segments.filter { $0.y.isFinite && $0.fromX < $0.toX }.sorted { $0.fromX < $1.fromX }
    }

    /// The threshold in force at `x`, nil where the line has no segment.
    public func value(at x: Double) -> Double? {
        segments.first { $0.fromX <= x && x < $0.toX }?.y ?? segments.last { $0.toX == x }?.y
    }
}

/// A horizontal piece of a threshold line over `fromX..<toX`.
public struct ThresholdSegment: Sendable, Equatable {
    public var fromX: Double
    public var toX: Double
    public var y: Double

    public init(fromX: Double, toX: Double, y: Double) {
        self.fromX = fromX
        self.toX = toX
        self.y = y
    }
}

/// A shaded, labelled x range (e.g. the critical window POD 5–9: `fromX` 4.5, `toX` 9.5).
public struct ChartMarker: Sendable, Equatable {
    public var label: String
    public var fromX: Double
    public var toX: Double

    public init(label: String, fromX: Double, toX: Double) {
        self.label = label
        self.fromX = fromX
        self.toX = toX
    }
}
