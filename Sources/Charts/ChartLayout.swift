/// Maps a `Chart` into canvas geometry. Pure arithmetic: both the SVG and the PDF renderer draw
/// exactly what this returns.
public enum ChartLayout {
    /// Lays out `chart` at `options.width` wide; the height follows from the plot and the legend.
    public static func layout(_ chart: Chart, options: ChartLayoutOptions = ChartLayoutOptions()) -> ChartGeometry {
        let o = options
        let plot = ChartRect(x: o.marginLeft, y: o.marginTop, width: max(o.width - o.marginLeft - o.marginRight, 10),
                             height: max(o.plotHeight, 10))
        let scale = chart.yScale(targetTickCount: o.yTickCount)
        let domain = chart.xAxis.domain
        let map = Mapping(plot: plot, domain: domain, scale: scale)

        let xTickBaseline = plot.maxY + o.fontSize + 4
        let xTitle = ChartPosition(x: plot.x + plot.width / 2, y: xTickBaseline + o.fontSize + 6)
        var geometry = ChartGeometry(
            width: o.width, height: 0, plot: plot, yScale: scale,
            titlePosition: ChartPosition(x: plot.x, y: o.marginTop - 10),
            xTicks: xTicks(chart.xAxis, map, o), yTicks: scale.ticks.map {
                AxisTick(position: map.y($0), label: ChartNumber.format($0, decimals: max(scale.decimals, chart.yAxis.minimumDecimals),
                                                                                separator: chart.decimalSeparator))
            },
            xTitlePosition: xTitle, yTitlePosition: ChartPosition(x: o.fontSize + 2, y: plot.y + plot.height / 2),
            series: [], thresholds: [], markers: [], legend: [],
            noDataPosition: chart.hasData ? nil : ChartPosition(x: plot.x + plot.width / 2, y: plot.y + plot.height / 2),
            options: o)

        geometry.markers = chart.markers.compactMap { m in
            let from = max(m.fromX, domain.lowerBound), to = min(m.toX, domain.upperBound)
            guard from < to else { return nil }
            let rect = ChartRect(x: map.x(from), y: plot.y, width: map.x(to) - map.x(from), height: plot.height)
            return MarkerGeometry(label: m.label, rect: rect,
                                  labelPosition: ChartPosition(x: rect.x + rect.width / 2, y: plot.y + o.fontSize + 2))
        }
        geometry.thresholds = thresholds(chart, map, o)
        geometry.series = chart.series.enumerated().map { index, s in series(chart, s, index: index, map) }

        // Legend rows under the x axis title: series (when more than one), thresholds, markers.
        var rows: [(LegendEntry.Sample, String)] = []
        if chart.series.count > 1 { rows += chart.series.enumerated().map { (.series($0.offset), $0.element.name) } }
        rows += chart.thresholds.map { (.threshold($0.kind), $0.label) }
        rows += chart.markers.map { (.marker, $0.label) }
        var baseline = xTitle.y + o.legendRowHeight + 2
        let labelX = plot.x + 30
        for (sample, label) in rows {
            let first = baseline
            let lines = wrap(label, width: o.width - labelX - 4, fontSize: o.fontSize).map { text in
                defer { baseline += o.legendRowHeight }
                return LegendLine(text: text, position: ChartPosition(x: labelX, y: baseline))
            }
            geometry.legend.append(LegendEntry(sample: sample, label: label, position: ChartPosition(x: plot.x, y: first), lines: lines))
        }
        geometry.height = (baseline - o.legendRowHeight + o.fontSize).rounded(.up)
        return geometry
    }

    /// How wide a character of the charts' sans-serif font is taken to be, in font sizes: above
    /// DejaVu Sans's average for mixed text (about 0.55), as the layout has no font metrics; a
    /// label of wide letters only (`W`, `m`, `%`: 0.7–1.0) can still come out wider.
    static let characterWidth = 0.6

    /// `text` broken at spaces into lines of at most `width` (estimated with `characterWidth`);
    /// a word longer than a line stays whole on its own. Runs of spaces count as one (SVG text
    /// shows them as one); a text without words is one empty line.
    static func wrap(_ text: String, width: Double, fontSize: Double) -> [String] {
        let characters = width / (fontSize * characterWidth)
        let fits = characters.isFinite ? max(Int(min(characters, 10_000)), 1) : 10_000
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty { line = String(word) } else if line.count + 1 + word.count <= fits { line += " " + word } else {
                lines.append(line)
                line = String(word)
            }
        }
        return lines + [line]
    }

    /// Canvas coordinates of chart values.
    struct Mapping {
        let plot: ChartRect
        let domain: ClosedRange<Double>
        let scale: NiceScale

        func x(_ value: Double) -> Double {
            plot.x + (value - domain.lowerBound) / (domain.upperBound - domain.lowerBound) * plot.width
        }
        func y(_ value: Double) -> Double { plot.maxY - scale.fraction(of: value) * plot.height }
        func point(_ x: Double, _ y: Double) -> ChartPosition { ChartPosition(x: self.x(x), y: self.y(y)) }
    }

    /// A tick per day, or per k-th day when the labels would not fit (the first day always labelled).
    static func xTicks(_ axis: ChartXAxis, _ map: Mapping, _ o: ChartLayoutOptions) -> [AxisTick] {
        let slot = map.plot.width / Double(axis.dayCount)
        let widest = (axis.firstDay...axis.lastDay).map { axis.label(ofDay: $0).count }.max() ?? 1
        // About 0.6 em per character in a sans-serif face, plus a gap.
        let needed = Double(widest) * o.fontSize * 0.6 + 6
        let every = max(1, Int((needed / slot).rounded(.up)))
        return stride(from: axis.firstDay, through: axis.lastDay, by: every).map {
            AxisTick(position: map.x(Double($0)), label: axis.label(ofDay: $0))
        }
    }

    static func thresholds(_ chart: Chart, _ map: Mapping, _ o: ChartLayoutOptions) -> [ThresholdGeometry] {
        let domain = map.domain
        var out: [ThresholdGeometry] = []
        for (index, t) in chart.thresholds.enumerated() {
            var paths: [[ChartPosition]] = []
            var lastTo: Double?
            for s in t.segments {
                let from = max(s.fromX, domain.lowerBound), to = min(s.toX, domain.upperBound)
                guard from < to else { continue }
                let start = map.point(from, s.y), end = map.point(to, s.y)
                if let lastTo, abs(lastTo - from) < 1e-9, !paths.isEmpty {
                    paths[paths.count - 1] += [start, end]
                } else {
                    paths.append([start, end])
                }
                lastTo = to
            }
            guard let lastPath = paths.last, let end = lastPath.last else { continue }
            let edge = t.direction == .atOrAbove ? map.plot.y : map.plot.maxY
            let bands = paths.map { path in
                path + [ChartPosition(x: path.last!.x, y: edge), ChartPosition(x: path.first!.x, y: edge)]
            }
            out.append(ThresholdGeometry(index: index, kind: t.kind, tag: t.tag, label: t.label, paths: paths, bands: bands,
                                         tagPosition: ChartPosition(x: map.plot.maxX + 4, y: end.y + o.fontSize / 3)))
        }
        // Tags at least one line apart, top to bottom, kept inside the plot's height.
        let order = out.indices.sorted { out[$0].tagPosition.y < out[$1].tagPosition.y }
        var previous = -Double.infinity
        for i in order {
            let y = max(out[i].tagPosition.y, previous + o.fontSize + 1)
            out[i].tagPosition.y = y
            previous = y
        }
        return out
    }

    static func series(_ chart: Chart, _ s: ChartSeries, index: Int, _ map: Mapping) -> SeriesGeometry {
        let visible = s.points.filter { map.domain.contains($0.x) }
        var lines: [[ChartPosition]] = []
        var previousDay: Int?
        for p in visible {
            let position = map.point(p.x, p.y), day = chart.xAxis.day(at: p.x)
            if let previousDay, let apart = s.joinsDaysApart, day - previousDay <= apart, !lines.isEmpty {
                lines[lines.count - 1].append(position)
            } else {
                lines.append([position])
            }
            previousDay = day
        }
        let points = visible.map { p in
            PointGeometry(position: map.point(p.x, p.y), flag: p.flag, title: pointTitle(chart, s, p))
        }
        return SeriesGeometry(index: index, name: s.name, lines: lines.filter { $0.count > 1 }, points: points)
    }

    /// "POD 5, 2026-03-07 08:15: 134 mmol/L (red)".
    static func pointTitle(_ chart: Chart, _ s: ChartSeries, _ p: ChartPoint) -> String {
        var text = chart.xAxis.name(ofDay: chart.xAxis.day(at: p.x))
        if let note = p.note { text += " " + note }
        text += ": " + chart.format(p.y)
        if !chart.yAxis.unit.isEmpty { text += " " + chart.yAxis.unit }
        if chart.series.count > 1 { text = s.name + ", " + text }
        if let flag = p.flag, flag != .reference { text += " (" + chart.word(for: flag) + ")" }
        return text
    }
}
