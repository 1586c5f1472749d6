/// The output of `ChartLayout`: everything a renderer draws, in canvas units (points in a PDF,
/// CSS pixels in SVG) with the origin at the top left and y growing downwards — the default of
/// both SVG and cairo. Renderers add no numbers of their own beyond styling.
public struct ChartGeometry: Sendable, Equatable {
    public var width: Double
    public var height: Double
    /// The plot area inside the axes.
    public var plot: ChartRect
    /// The scale the y positions were computed with.
    public var yScale: NiceScale
    /// Baseline of the visible title.
    public var titlePosition: ChartPosition
    /// Positions along the axis: x for `xTicks`, y for `yTicks`.
    public var xTicks: [AxisTick]
    public var yTicks: [AxisTick]
    /// Centre of the x axis title, and of the y axis title (drawn rotated by −90°).
    public var xTitlePosition: ChartPosition
    public var yTitlePosition: ChartPosition
    public var series: [SeriesGeometry]
    public var thresholds: [ThresholdGeometry]
    public var markers: [MarkerGeometry]
    public var legend: [LegendEntry]
    /// Where to write `Chart.noDataText`, nil when there is data.
    public var noDataPosition: ChartPosition?
    public var options: ChartLayoutOptions
}

public struct ChartPosition: Sendable, Equatable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

public struct ChartRect: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
}

/// A tick: its position along the axis and its label.
public struct AxisTick: Sendable, Equatable {
    public var position: Double
    public var label: String
}

public struct SeriesGeometry: Sendable, Equatable {
    /// Index in `Chart.series` (renderers pick a colour and a point shape by it).
    public var index: Int
    public var name: String
    /// Polylines; a missing day splits the series into several.
    public var lines: [[ChartPosition]]
    public var points: [PointGeometry]
}

public struct PointGeometry: Sendable, Equatable {
    public var position: ChartPosition
    public var flag: ThresholdKind?
    /// For hover and screen readers: day, note, value with unit, and the level reached.
    public var title: String
}

public struct ThresholdGeometry: Sendable, Equatable {
    /// Index in `Chart.thresholds`.
    public var index: Int
    public var kind: ThresholdKind
    public var tag: String
    public var label: String
    /// Step polylines (one per run of adjacent segments).
    public var paths: [[ChartPosition]]
    /// Closed polygons from each path to the plot edge on the alarming side.
    public var bands: [[ChartPosition]]
    /// Left end of the tag text, right of the plot, nudged so tags never overlap.
    public var tagPosition: ChartPosition
}

public struct MarkerGeometry: Sendable, Equatable {
    public var label: String
    public var rect: ChartRect
    /// Centre of the label, just inside the top of the plot.
    public var labelPosition: ChartPosition
}

/// One legend row: a sample (line or point) starting at `position` and the label after it.
public struct LegendEntry: Sendable, Equatable {
    public enum Sample: Sendable, Equatable {
        case series(Int)
        case threshold(ThresholdKind)
        case marker
    }

    public var sample: Sample
    /// The whole label.
    public var label: String
    /// Left end of the sample, on the first line's text baseline.
    public var position: ChartPosition
    /// The label as drawn: one line, or several where it is wider than the chart leaves it
    /// (broken at spaces, each line under the one before).
    public var lines: [LegendLine]
}

/// One line of a legend label and where its text starts.
public struct LegendLine: Sendable, Equatable {
    public var text: String
    public var position: ChartPosition
}

/// Sizes the layout works with. Font sizes are here so that both renderers reserve the same room.
public struct ChartLayoutOptions: Sendable, Equatable {
    public var width: Double
    /// Height of the plot area alone; the whole chart grows with the legend.
    public var plotHeight: Double
    public var marginLeft: Double
    /// Room for the threshold tags.
    public var marginRight: Double
    /// Room for the title.
    public var marginTop: Double
    public var fontSize: Double
    public var titleFontSize: Double
    public var legendRowHeight: Double
    /// About this many y ticks.
    public var yTickCount: Int

    public init(width: Double = 640, plotHeight: Double = 200, marginLeft: Double = 64, marginRight: Double = 64,
                marginTop: Double = 28, fontSize: Double = 11, titleFontSize: Double = 14,
                legendRowHeight: Double = 18, yTickCount: Int = 5) {
        self.width = width
        self.plotHeight = plotHeight
        self.marginLeft = marginLeft
        self.marginRight = marginRight
        self.marginTop = marginTop
        self.fontSize = fontSize
        self.titleFontSize = titleFontSize
        self.legendRowHeight = legendRowHeight
        self.yTickCount = yTickCount
    }
}
