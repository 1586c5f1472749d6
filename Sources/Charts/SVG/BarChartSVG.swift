/// Renders a `BarChart` as a self-contained `<svg>` for inline use: `role="img"` with `<title>`
/// and `<desc>`, a `<title>` on every bar, values written beside the bars and a legend in words
/// (colour is never the only carrier), no script and no inline style; every text escaped
/// (`SVGWriter`).
public enum BarChartSVG {
    public static func render(_ chart: BarChart, idPrefix: String = "bars", width: Double = 560, height: Double = 260) -> String {
        let id = XMLText.token(idPrefix) + "-" + XMLText.token(chart.id)
        let n = SVGWriter.number
        let left = 56.0, right = 16.0, top = 34.0, bottom = 58.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let scale = chart.yScale()
        func y(_ v: Double) -> Double { top + plotHeight * (1 - scale.fraction(of: v)) }
        var w = SVGWriter()
        w.open("svg", [("xmlns", "http://www.w3.org/2000/svg"), ("class", "ht-chart ht-bar-chart"), ("role", "img"),
                       ("aria-labelledby", "\(id)-title \(id)-desc"), ("viewBox", "0 0 \(n(width)) \(n(height))"),
                       ("width", n(width)), ("height", n(height)), ("font-family", "DejaVu Sans, Verdana, sans-serif"),
                       ("font-size", "11"), ("fill", ChartPalette.text)])
        w.element("title", [("id", "\(id)-title")], text: chart.title)
        w.element("desc", [("id", "\(id)-desc")], text: chart.summary)
        w.empty("rect", [("x", "0"), ("y", "0"), ("width", n(width)), ("height", n(height)), ("fill", "#ffffff")])
        w.element("text", [("class", "ht-chart-title"), ("x", n(left)), ("y", "16"), ("font-weight", "bold"), ("font-size", "13")],
                  text: chart.title)
        w.newline()
        for tick in scale.ticks {
            w.empty("line", [("x1", n(left)), ("x2", n(left + plotWidth)), ("y1", n(y(tick))), ("y2", n(y(tick))),
                             ("stroke", ChartPalette.grid), ("stroke-width", "1")])
            w.element("text", [("x", n(left - 6)), ("y", n(y(tick) + 4)), ("text-anchor", "end"), ("fill", ChartPalette.axis)],
                      text: ChartNumber.format(tick, decimals: scale.decimals, separator: chart.decimalSeparator))
        }
        w.element("text", [("x", "12"), ("y", n(top + plotHeight / 2)), ("text-anchor", "middle"), ("fill", ChartPalette.axis),
                           ("transform", "rotate(-90 12 \(n(top + plotHeight / 2)))")], text: chart.yTitle)
        let count = max(chart.categories.count, 1)
        let slot = plotWidth / Double(count)
        let seriesCount = max(chart.series.count, 1)
        let barWidth = slot * 0.7 / Double(seriesCount)
        for (i, category) in chart.categories.enumerated() {
            let x0 = left + slot * Double(i)
            w.element("text", [("x", n(x0 + slot / 2)), ("y", n(top + plotHeight + 14)), ("text-anchor", "middle"),
                               ("fill", ChartPalette.axis)], text: category)
            for (j, s) in chart.series.enumerated() {
                guard i < s.bars.count, let bar = s.bars[i] else { continue }
                let colour = ChartPalette.series[j % ChartPalette.series.count]
                let bx = x0 + slot * 0.15 + barWidth * Double(j)
                let top = y(max(bar.value, scale.lower)), base = y(max(0, scale.lower))
                w.open("g", [("class", "ht-bar")])
                w.element("title", text: "\(s.name): \(category): \(bar.label)")
                w.empty("rect", [("x", n(bx)), ("y", n(min(top, base))), ("width", n(barWidth)), ("height", n(abs(base - top))),
                                 ("fill", colour)])
                if let low = bar.low, let high = bar.high {
                    let cx = bx + barWidth / 2
                    w.empty("line", [("class", "ht-interval"), ("x1", n(cx)), ("x2", n(cx)), ("y1", n(y(low))), ("y2", n(y(high))),
                                     ("stroke", ChartPalette.text), ("stroke-width", "1.5")])
                    for end in [low, high] {
                        w.empty("line", [("x1", n(cx - 5)), ("x2", n(cx + 5)), ("y1", n(y(end))), ("y2", n(y(end))),
                                         ("stroke", ChartPalette.text), ("stroke-width", "1.5")])
                    }
                }
                w.element("text", [("x", n(bx + barWidth / 2)), ("y", n(min(top, base) - 3)), ("text-anchor", "middle")],
                          text: chart.format(bar.value))
                w.close("g")
            }
        }
        w.empty("line", [("x1", n(left)), ("x2", n(left + plotWidth)), ("y1", n(y(max(0, scale.lower)))),
                         ("y2", n(y(max(0, scale.lower)))), ("stroke", ChartPalette.axis), ("stroke-width", "1")])
        w.element("text", [("x", n(left + plotWidth / 2)), ("y", n(top + plotHeight + 30)), ("text-anchor", "middle"),
                           ("fill", ChartPalette.axis)], text: chart.xTitle)
        var lx = left
        for (j, s) in chart.series.enumerated() {
            w.empty("rect", [("x", n(lx)), ("y", n(height - 16)), ("width", "10"), ("height", "10"),
                             ("fill", ChartPalette.series[j % ChartPalette.series.count])])
            w.element("text", [("x", n(lx + 14)), ("y", n(height - 7))], text: s.name)
            lx += 14 + Double(s.name.count) * 7 + 16
        }
        if !chart.hasData {
            w.element("text", [("x", n(left + plotWidth / 2)), ("y", n(top + plotHeight / 2)), ("text-anchor", "middle")],
                      text: chart.noDataText)
        }
        w.close("svg")
        return w.output
    }
}
