import HyponaTrackKit
import PDFCanvas

/// Lays the report out, then draws it: the layout runs first over the whole content with the
/// document's fonts (so the page count is known), then every page is drawn with the running
/// header and the footer "generated at … · page N of M". One document, one cairo surface,
/// freed before `render` returns.
struct ReportRenderer {
    let content: ReportContent
    let text: ReportText

    struct Rendered {
        var pdf: [UInt8]
        var pageCount: Int
        /// Where the time went: laying out (measuring every text), drawing the pages, finishing the
        /// file (cairo subsets and embeds the fonts, compresses the streams).
        var layout: Duration
        var draw: Duration
        var finish: Duration
    }

    func render() throws -> Rendered {
        let composer = ReportComposer(content: content, text: text)
        let metrics = composer.metrics
        let clock = ContinuousClock()
        var pageCount = 0
        var layoutTime = Duration.zero, drawTime = Duration.zero
        let start = clock.now
        let pdf = try PDFDocument.render(title: "\(text.title) \(content.studyId)",
                                         creator: "HyponaTrack Server \(HyponaTrackVersion.string)") { document in
            let layoutStart = clock.now
            let pages = ReportLayout.layout(composer.blocks(), metrics: metrics) { document.measure($0, font: $1, width: $2) }
            layoutTime = clock.now - layoutStart
            defer { drawTime = clock.now - layoutStart - layoutTime }
            pageCount = pages.count
            for (index, page) in pages.enumerated() {
                try document.page { canvas in
                    frame(canvas, metrics: metrics, composer: composer, number: index + 1, of: pages.count)
                    for item in page.items { draw(item, on: canvas) }
                }
            }
        }
        return Rendered(pdf: pdf, pageCount: pageCount, layout: layoutTime, draw: drawTime,
                        finish: clock.now - start - layoutTime - drawTime)
    }

    private func draw(_ item: ReportItem, on page: PDFPage) {
        switch item {
        case .text(let s, let font, let color, let x, let top, let width):
            page.paragraph(s, x: x, top: top, width: width, font: font, color: color)
        case .chart(let chart):
            chart.draw(on: page)
        case .line(let from, let to, let color):
            page.stroke([from, to], color: color, width: 0.5)
        case .box(let x, let y, let width, let height, let fill):
            page.rectangle(x: x, y: y, width: width, height: height, fill: fill)
        }
    }

    /// The running header (study ID, title, disclaimer) and the footer (generated at, page N of M).
    private func frame(_ page: PDFPage, metrics m: ReportLayout.Metrics, composer: ReportComposer, number: Int, of total: Int) {
        let left = m.margin, right = m.pageWidth - m.margin, grey = PDFColor(hex: "#4b5563")
        page.text("\(text.studyId) \(content.studyId)", x: left, baseline: 30, font: m.smallBold, color: ReportLayout.text)
        page.text("\(text.title) · \(text.shortDisclaimer)", x: right, baseline: 30, font: m.small, color: grey, alignment: .end)
        page.stroke([PDFPoint(x: left, y: 36), PDFPoint(x: right, y: 36)], color: ReportLayout.rule, width: 0.75)
        let footer = m.pageHeight - 30
        page.stroke([PDFPoint(x: left, y: footer - 12), PDFPoint(x: right, y: footer - 12)], color: ReportLayout.rule, width: 0.75)
        page.text("\(text.generatedAt) \(composer.time(content.generatedAt)) (\(content.zone.identifier))", x: left,
                  baseline: footer, font: m.small, color: grey)
        page.text(text.page(number, of: total), x: right, baseline: footer, font: m.small, color: grey, alignment: .end)
    }
}
