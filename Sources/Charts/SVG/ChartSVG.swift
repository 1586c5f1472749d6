/// Renders a chart as a self-contained `<svg>` element for inline use in HTML (or a file):
/// `role="img"` with `<title>` and `<desc>`, a `<title>` on every point for hover and screen
/// readers, dashed threshold lines with words at their ends and in the legend (colour is never
/// the only carrier), no script and no inline style. Classes (`ht-chart`, `ht-threshold-red`, …)
/// let a stylesheet restyle it; presentation attributes make it look right without one.
public enum ChartSVG {
    /// Lays the chart out and renders it. `idPrefix` keeps element ids unique when a page holds
    /// several charts of several patients.
    public static func render(_ chart: Chart, options: ChartLayoutOptions = ChartLayoutOptions(), idPrefix: String = "chart") -> String {
        render(chart, geometry: ChartLayout.layout(chart, options: options), idPrefix: idPrefix)
    }

    /// Renders a geometry computed by `ChartLayout.layout(chart, …)`.
    public static func render(_ chart: Chart, geometry g: ChartGeometry, idPrefix: String = "chart") -> String {
        let id = XMLText.token(idPrefix) + "-" + XMLText.token(chart.id)
        let n = SVGWriter.number
        var w = SVGWriter()
        w.open("svg", [("xmlns", "http://www.w3.org/2000/svg"), ("class", "ht-chart"), ("role", "img"),
                       ("aria-labelledby", "\(id)-title \(id)-desc"), ("viewBox", "0 0 \(n(g.width)) \(n(g.height))"),
                       ("width", n(g.width)), ("height", n(g.height)), ("font-family", "DejaVu Sans, Verdana, sans-serif"),
                       ("font-size", n(g.options.fontSize)), ("fill", Palette.text)])
        w.element("title", [("id", "\(id)-title")], text: chart.title)
        w.element("desc", [("id", "\(id)-desc")], text: chart.summary)
        w.newline()
        w.empty("rect", [("class", "ht-chart-background"), ("x", "0"), ("y", "0"), ("width", n(g.width)),
                         ("height", n(g.height)), ("fill", "#ffffff")])
        w.element("text", [("class", "ht-chart-title"), ("x", n(g.titlePosition.x)), ("y", n(g.titlePosition.y)),
                           ("font-size", n(g.options.titleFontSize)), ("font-weight", "bold")], text: chart.title)
        w.newline()
        markers(&w, g)
        bands(&w, g)
        axes(&w, chart, g)
        thresholds(&w, g)
        for m in g.markers {
            // After the bands and threshold lines, with a white halo, so a line through it leaves it legible.
            w.element("text", [("class", "ht-chart-marker-label"), ("x", n(m.labelPosition.x)), ("y", n(m.labelPosition.y)),
                               ("text-anchor", "middle"), ("fill", Palette.axis)] + Self.halo, text: m.label)
        }
        series(&w, g)
        if let p = g.noDataPosition {
            w.element("text", [("class", "ht-chart-nodata"), ("x", n(p.x)), ("y", n(p.y)), ("text-anchor", "middle")] + Self.halo,
                      text: chart.noDataText)
        }
        legend(&w, g)
        w.close("svg")
        return w.output
    }

    /// The shared palette, with dashes as SVG `stroke-dasharray` strings.
    enum Palette {
        static let text = ChartPalette.text
        static let grid = ChartPalette.grid
        static let axis = ChartPalette.axis
        static let series = ChartPalette.series
        static let marker = ChartPalette.marker
        static func stroke(_ kind: ThresholdKind) -> String { ChartPalette.stroke(kind) }
        static func band(_ kind: ThresholdKind) -> String { ChartPalette.band(kind) }
        static func dash(_ kind: ThresholdKind) -> String { ChartPalette.dash(kind).map(SVGWriter.number).joined(separator: " ") }
    }

    static func markers(_ w: inout SVGWriter, _ g: ChartGeometry) {
        let n = SVGWriter.number
        for m in g.markers {
            w.open("g", [("class", "ht-chart-marker")])
            w.empty("rect", [("x", n(m.rect.x)), ("y", n(m.rect.y)), ("width", n(m.rect.width)), ("height", n(m.rect.height)),
                             ("fill", Palette.marker)])
            w.close("g")
            w.newline()
        }
    }

    static func bands(_ w: inout SVGWriter, _ g: ChartGeometry) {
        for t in g.thresholds where t.kind != .reference {
            for band in t.bands {
                w.empty("polygon", [("class", "ht-band ht-band-\(t.kind.rawValue)"), ("points", SVGWriter.points(band)),
                                    ("fill", Palette.band(t.kind)), ("fill-opacity", "0.5")])
            }
        }
        w.newline()
    }

    static func axes(_ w: inout SVGWriter, _ chart: Chart, _ g: ChartGeometry) {
        let n = SVGWriter.number, p = g.plot
        w.open("g", [("class", "ht-chart-axes")])
        for t in g.yTicks {
            w.empty("line", [("x1", n(p.x)), ("y1", n(t.position)), ("x2", n(p.maxX)), ("y2", n(t.position)),
                             ("stroke", Palette.grid), ("stroke-width", "1")])
            w.element("text", [("x", n(p.x - 6)), ("y", n(t.position + g.options.fontSize / 3)), ("text-anchor", "end")],
                      text: t.label)
        }
        for t in g.xTicks {
            w.empty("line", [("x1", n(t.position)), ("y1", n(p.maxY)), ("x2", n(t.position)), ("y2", n(p.maxY + 4)),
                             ("stroke", Palette.axis)])
            w.element("text", [("x", n(t.position)), ("y", n(p.maxY + g.options.fontSize + 4)), ("text-anchor", "middle")],
                      text: t.label)
        }
        w.empty("rect", [("x", n(p.x)), ("y", n(p.y)), ("width", n(p.width)), ("height", n(p.height)), ("fill", "none"),
                         ("stroke", Palette.axis)])
        w.element("text", [("x", n(g.xTitlePosition.x)), ("y", n(g.xTitlePosition.y)), ("text-anchor", "middle")],
                  text: chart.xAxis.title)
        let yTitle = chart.yAxis.title + (chart.yAxis.unit.isEmpty ? "" : " (\(chart.yAxis.unit))")
        w.element("text", [("x", n(g.yTitlePosition.x)), ("y", n(g.yTitlePosition.y)), ("text-anchor", "middle"),
                           ("transform", "rotate(-90 \(n(g.yTitlePosition.x)) \(n(g.yTitlePosition.y)))")], text: yTitle)
        w.close("g")
        w.newline()
    }

    static func thresholds(_ w: inout SVGWriter, _ g: ChartGeometry) {
        let n = SVGWriter.number
        for t in g.thresholds {
            w.open("g", [("class", "ht-threshold ht-threshold-\(t.kind.rawValue)")])
            w.element("title", text: t.label)
            for path in t.paths {
                w.empty("polyline", [("points", SVGWriter.points(path)), ("fill", "none"), ("stroke", Palette.stroke(t.kind)),
                                     ("stroke-width", "1.5"), ("stroke-dasharray", Palette.dash(t.kind))])
            }
            w.element("text", [("x", n(t.tagPosition.x)), ("y", n(t.tagPosition.y)), ("fill", Palette.stroke(t.kind))],
                      text: t.tag)
            w.close("g")
            w.newline()
        }
    }

    static func series(_ w: inout SVGWriter, _ g: ChartGeometry) {
        for s in g.series {
            let colour = Palette.series[s.index % Palette.series.count]
            w.open("g", [("class", "ht-series ht-series-\(s.index)")])
            for line in s.lines {
                w.empty("polyline", [("points", SVGWriter.points(line)), ("fill", "none"), ("stroke", colour),
                                     ("stroke-width", "2")])
            }
            for p in s.points { point(&w, p, colour: colour) }
            w.close("g")
            w.newline()
        }
    }

    /// A circle; a reached threshold adds a shape as well as a colour: a diamond for yellow, a square for red.
    static func point(_ w: inout SVGWriter, _ p: PointGeometry, colour: String) {
        let n = SVGWriter.number, x = p.position.x, y = p.position.y
        let flag = p.flag.flatMap { $0 == .reference ? nil : $0 }
        let cls = "ht-point" + (flag.map { " ht-point-\($0.rawValue)" } ?? "")
        switch flag {
        case .red?:
            w.open("rect", [("class", cls), ("x", n(x - 5)), ("y", n(y - 5)), ("width", "10"), ("height", "10"),
                            ("fill", Palette.stroke(.red)), ("stroke", "#ffffff")])
            w.element("title", text: p.title)
            w.close("rect")
        case .yellow?:
            w.open("polygon", [("class", cls), ("points", SVGWriter.points([
                ChartPosition(x: x, y: y - 6), ChartPosition(x: x + 6, y: y), ChartPosition(x: x, y: y + 6),
                ChartPosition(x: x - 6, y: y)])), ("fill", Palette.stroke(.yellow)), ("stroke", "#ffffff")])
            w.element("title", text: p.title)
            w.close("polygon")
        default:
            w.open("circle", [("class", cls), ("cx", n(x)), ("cy", n(y)), ("r", "3.5"), ("fill", colour), ("stroke", "#ffffff")])
            w.element("title", text: p.title)
            w.close("circle")
        }
    }

    /// A white outline drawn under a text's fill (presentation attributes, no style).
    static let halo: [(String, String)] = [("stroke", "#ffffff"), ("stroke-width", "3"), ("stroke-linejoin", "round"),
                                           ("paint-order", "stroke")]

    static func legend(_ w: inout SVGWriter, _ g: ChartGeometry) {
        let n = SVGWriter.number
        w.open("g", [("class", "ht-chart-legend")])
        for entry in g.legend {
            let y = entry.position.y - g.options.fontSize / 3
            switch entry.sample {
            case .series(let i):
                w.empty("line", [("x1", n(entry.position.x)), ("y1", n(y)), ("x2", n(entry.position.x + 22)), ("y2", n(y)),
                                 ("stroke", Palette.series[i % Palette.series.count]), ("stroke-width", "2")])
            case .threshold(let kind):
                w.empty("line", [("x1", n(entry.position.x)), ("y1", n(y)), ("x2", n(entry.position.x + 22)), ("y2", n(y)),
                                 ("stroke", Palette.stroke(kind)), ("stroke-width", "1.5"),
                                 ("stroke-dasharray", Palette.dash(kind))])
            case .marker:
                w.empty("rect", [("x", n(entry.position.x)), ("y", n(y - 5)), ("width", "22"), ("height", "10"),
                                 ("fill", Palette.marker), ("stroke", Palette.grid)])
            }
            for line in entry.lines {
                w.element("text", [("x", n(line.position.x)), ("y", n(line.position.y))], text: line.text)
            }
        }
        w.close("g")
    }
}
