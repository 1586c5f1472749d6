import Testing
import Charts
import PDFCanvas
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// `ReportLayout` with a stand-in for pango's measurements (4 pt a character, 10 pt a line,
/// wrapped at the given width), so page breaks can be predicted exactly.
@Suite struct ReportLayoutTests {
    static func measure(_ text: String, _ font: PDFFont, _ width: Double?) -> PDFTextSize {
        let perLine = width.map { max(1, Int($0 / 4)) } ?? Int.max
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .reduce(0) { $0 + max(1, ($1.count + perLine - 1) / perLine) }
        return PDFTextSize(width: Double(min(text.count, perLine)) * 4, height: Double(lines) * 10, baseline: 8)
    }

    static func texts(_ page: ReportPage) -> [(text: String, top: Double, width: Double)] {
        page.items.compactMap { if case .text(let s, _, _, _, let top, let width) = $0 { (s, top, width) } else { nil } }
    }

    static let table = ReportTable(columns: [.init(title: "Day", share: 0.3), .init(title: "Reasons", share: 0.7)],
                                   rows: (1...120).map { .init(cells: ["day \($0)", $0 % 7 == 0 ? "a reason\nand another\nand a third" : "–"]) })

    @Test func aTableLongerThanAPageContinuesOnTheNextWithItsHeaderRepeatedAndEveryRowPlacedOnce() {
        let pages = ReportLayout.layout([.heading("Days"), .table(Self.table)], measure: Self.measure)
        #expect(pages.count > 2)
        var placed: [String] = []
        for (i, page) in pages.enumerated() {
            let texts = Self.texts(page)
            // Each page starts with the header row (after the heading on the first).
            let first = texts.first { $0.text == "Day" || $0.text == "Days" }
            #expect(first != nil, "page \(i + 1)")
            #expect(texts.filter { $0.text == "Reasons" }.count == 1, "page \(i + 1)")
            placed += texts.map(\.text).filter { $0.hasPrefix("day ") }
        }
        #expect(placed == (1...120).map { "day \($0)" })
    }

    @Test func nothingIsPlacedBelowTheContentBottomAndEveryTextFitsItsMeasuredHeight() {
        let m = ReportLayout.Metrics()
        let long = String(repeating: "word ", count: 400)
        let pages = ReportLayout.layout([.paragraph(long, font: m.body, color: .black), .table(Self.table),
                                         .paragraph(long, font: m.body, color: .black)], measure: Self.measure)
        for page in pages {
            for t in Self.texts(page) {
                let bottom = t.top + Self.measure(t.text, m.body, t.width).height
                #expect(bottom <= m.contentBottom + 0.001, "\(t.text.prefix(20)) ends at \(bottom)")
                #expect(t.top >= m.contentTop - 0.001)
            }
        }
    }

    @Test func aChartThatDoesNotFitBelowTheCursorStartsTheNextPageAndKeepsItsLaidOutGeometry() {
        let chart = Chart(id: "c", title: "C", summary: "", xAxis: ChartXAxis(title: "POD", firstDay: 1, lastDay: 21),
                          yAxis: ChartYAxis(title: "v", unit: ""), series: [ChartSeries(name: "v", points: [ChartPoint(x: 1, y: 2)])])
        let pages = ReportLayout.layout(Array(repeating: .chart(chart), count: 5), measure: Self.measure)
        let m = ReportLayout.Metrics()
        let expected = ChartLayout.layout(chart, options: m.chartOptions)
        var charts = 0
        for page in pages {
            for case .chart(let c) in page.items {
                charts += 1
                #expect(c.geometry == expected)
                #expect(c.origin.y + c.geometry.height <= m.contentBottom)
            }
        }
        #expect(charts == 5 && pages.count >= 2)
    }
}
