import Charts
import PDFCanvas

/// The second renderer of a `ChartGeometry` (the first is `ChartSVG`): draws on a PDF page
/// exactly what `ChartLayout.layout` computed — the same scale, threshold steps, bands, point
/// positions, tags and legend rows — with `ChartPalette`'s colours, dashes and point shapes, as
/// vectors. It adds an offset (where the chart sits on the page) and nothing else.
struct ChartPDF {
    let chart: Chart
    let geometry: ChartGeometry
    /// The chart's top left corner on the page.
    let origin: PDFPoint

    private var font: PDFFont { PDFFont(size: geometry.options.fontSize) }

    func draw(on page: PDFPage) {
        let g = geometry
        page.text(chart.title, x: x(g.titlePosition.x), baseline: y(g.titlePosition.y),
                  font: PDFFont(size: g.options.titleFontSize, bold: true), color: colour(ChartPalette.text))
        for m in g.markers {
            page.rectangle(x: x(m.rect.x), y: y(m.rect.y), width: m.rect.width, height: m.rect.height, fill: colour(ChartPalette.marker))
        }
        for t in g.thresholds where t.kind != .reference {
            for band in t.bands { page.fill(band.map(point), color: colour(ChartPalette.band(t.kind)), opacity: ChartPalette.bandOpacity) }
        }
        axes(page)
        for t in g.thresholds {
            for path in t.paths {
                page.stroke(path.map(point), color: colour(ChartPalette.stroke(t.kind)), width: ChartPalette.thresholdLineWidth,
                            dash: ChartPalette.dash(t.kind))
            }
            page.text(t.tag, x: x(t.tagPosition.x), baseline: y(t.tagPosition.y), font: font, color: colour(ChartPalette.stroke(t.kind)))
        }
        for m in g.markers {
            page.text(m.label, x: x(m.labelPosition.x), baseline: y(m.labelPosition.y), font: font, color: colour(ChartPalette.axis),
                      alignment: .center)
        }
        for s in g.series {
            let c = colour(ChartPalette.series(s.index))
            for line in s.lines { page.stroke(line.map(point), color: c, width: ChartPalette.seriesLineWidth) }
            for p in s.points { mark(page, p, colour: c) }
        }
        if let p = g.noDataPosition {
            page.text(chart.noDataText, x: x(p.x), baseline: y(p.y), font: font, color: colour(ChartPalette.text), alignment: .center)
        }
        legend(page)
    }

    private func axes(_ page: PDFPage) {
        let g = geometry, p = g.plot, text = colour(ChartPalette.text)
        for t in g.yTicks {
            page.stroke([PDFPoint(x: x(p.x), y: y(t.position)), PDFPoint(x: x(p.maxX), y: y(t.position))],
                        color: colour(ChartPalette.grid), width: 1)
            page.text(t.label, x: x(p.x - 6), baseline: y(t.position + g.options.fontSize / 3), font: font, color: text,
                      alignment: .end)
        }
        for t in g.xTicks {
            page.stroke([PDFPoint(x: x(t.position), y: y(p.maxY)), PDFPoint(x: x(t.position), y: y(p.maxY + 4))],
                        color: colour(ChartPalette.axis), width: 1)
            page.text(t.label, x: x(t.position), baseline: y(p.maxY + g.options.fontSize + 4), font: font, color: text,
                      alignment: .center)
        }
        page.rectangle(x: x(p.x), y: y(p.y), width: p.width, height: p.height, stroke: colour(ChartPalette.axis))
        page.text(chart.xAxis.title, x: x(g.xTitlePosition.x), baseline: y(g.xTitlePosition.y), font: font, color: text,
                  alignment: .center)
        let yTitle = chart.yAxis.title + (chart.yAxis.unit.isEmpty ? "" : " (\(chart.yAxis.unit))")
        page.text(yTitle, x: x(g.yTitlePosition.x), baseline: y(g.yTitlePosition.y), font: font, color: text,
                  alignment: .center, angle: -Double.pi / 2)
    }

    /// A circle; a reached threshold adds a shape as well as a colour: a diamond for yellow, a square for red.
    private func mark(_ page: PDFPage, _ p: PointGeometry, colour c: PDFColor) {
        let centre = point(p.position)
        switch p.flag {
        case .red?:
            let h = ChartPalette.redPointSide / 2
            page.outlined([PDFPoint(x: centre.x - h, y: centre.y - h), PDFPoint(x: centre.x + h, y: centre.y - h),
                           PDFPoint(x: centre.x + h, y: centre.y + h), PDFPoint(x: centre.x - h, y: centre.y + h)],
                          fill: colour(ChartPalette.stroke(.red)), stroke: .white)
        case .yellow?:
            let d = ChartPalette.yellowPointHalfDiagonal
            page.outlined([PDFPoint(x: centre.x, y: centre.y - d), PDFPoint(x: centre.x + d, y: centre.y),
                           PDFPoint(x: centre.x, y: centre.y + d), PDFPoint(x: centre.x - d, y: centre.y)],
                          fill: colour(ChartPalette.stroke(.yellow)), stroke: .white)
        default:
            page.circle(center: centre, radius: ChartPalette.pointRadius, fill: c, stroke: .white)
        }
    }

    private func legend(_ page: PDFPage) {
        let g = geometry, w = ChartPalette.legendSampleWidth
        for entry in g.legend {
            let ly = y(entry.position.y - g.options.fontSize / 3), lx = x(entry.position.x)
            switch entry.sample {
            case .series(let i):
                page.stroke([PDFPoint(x: lx, y: ly), PDFPoint(x: lx + w, y: ly)], color: colour(ChartPalette.series(i)),
                            width: ChartPalette.seriesLineWidth)
            case .threshold(let kind):
                page.stroke([PDFPoint(x: lx, y: ly), PDFPoint(x: lx + w, y: ly)], color: colour(ChartPalette.stroke(kind)),
                            width: ChartPalette.thresholdLineWidth, dash: ChartPalette.dash(kind))
            case .marker:
                page.rectangle(x: lx, y: ly - 5, width: w, height: 10, fill: colour(ChartPalette.marker), stroke: colour(ChartPalette.grid))
            }
            for line in entry.lines {
                page.text(line.text, x: x(line.position.x), baseline: y(line.position.y), font: font, color: colour(ChartPalette.text))
            }
        }
    }

    private func x(_ v: Double) -> Double { origin.x + v }
    private func y(_ v: Double) -> Double { origin.y + v }
    private func point(_ p: ChartPosition) -> PDFPoint { PDFPoint(x: x(p.x), y: y(p.y)) }
    private func colour(_ hex: String) -> PDFColor { PDFColor(hex: hex) }
}
