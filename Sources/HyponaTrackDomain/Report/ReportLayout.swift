import Charts
import PDFCanvas

/// A piece of the report before it is placed: the composition (`ReportComposer`) says what comes
/// in which order, `ReportLayout` decides where it goes.
enum ReportBlock {
    case heading(String)
    case paragraph(String, font: PDFFont, color: PDFColor)
    /// Label and value pairs in two columns.
    case facts([(label: String, value: String)])
    case chart(Chart)
    /// Rows flow onto as many pages as they need, the header row repeated on each.
    case table(ReportTable)
    case space(Double)
}

struct ReportTable {
    struct Column {
        var title: String
        /// A share of the content width (the shares of a table add up to 1).
        var share: Double
    }

    struct Row {
        var cells: [String]
        /// Background of single cells (the level's colour), by column.
        var fills: [Int: PDFColor] = [:]
    }

    var columns: [Column]
    var rows: [Row]
}

/// Something placed on a page, in page coordinates (points from the top left).
enum ReportItem {
    case text(String, font: PDFFont, color: PDFColor, x: Double, top: Double, width: Double)
    case chart(ChartPDF)
    case line(from: PDFPoint, to: PDFPoint, color: PDFColor)
    case box(x: Double, y: Double, width: Double, height: Double, fill: PDFColor)
}

struct ReportPage {
    var items: [ReportItem] = []
}

/// Lays blocks out top to bottom into A4 pages, measuring every text with the document's own
/// fonts first, so the page count is known before anything is drawn ("page N of M") and no text
/// is cut: a paragraph or a table cell wraps inside its width, a block that does not fit starts a
/// new page, a table continues on the next page with its header repeated.
struct ReportLayout {
    typealias Measure = (String, PDFFont, Double?) -> PDFTextSize

    struct Metrics {
        var pageWidth = PDFDocument.a4.width
        var pageHeight = PDFDocument.a4.height
        var margin = 40.0
        /// Below the running header.
        var contentTop = 54.0
        /// Above the footer.
        var contentBottom = PDFDocument.a4.height - 52
        var body = PDFFont(size: 8.5)
        var small = PDFFont(size: 7.5)
        var smallBold = PDFFont(size: 7.5, bold: true)
        var heading = PDFFont(size: 12, bold: true)
        var cellPadding = 3.0
        var blockGap = 8.0

        var contentWidth: Double { pageWidth - 2 * margin }

        /// Charts fill the content width; fonts and margins as the page's small text.
        var chartOptions: ChartLayoutOptions {
            ChartLayoutOptions(width: contentWidth, plotHeight: 112, marginLeft: 52, marginRight: 46, marginTop: 22,
                               fontSize: 7.5, titleFontSize: 9.5, legendRowHeight: 11, yTickCount: 5)
        }
    }

    static let text = PDFColor(hex: ChartPalette.text)
    static let rule = PDFColor(hex: ChartPalette.grid)
    static let headerFill = PDFColor(hex: "#f3f4f6")

    let metrics: Metrics
    let measure: Measure
    private(set) var pages: [ReportPage] = [ReportPage()]
    private var y: Double

    init(metrics: Metrics = Metrics(), measure: @escaping Measure) {
        self.metrics = metrics
        self.measure = measure
        y = metrics.contentTop
    }

    static func layout(_ blocks: [ReportBlock], metrics: Metrics = Metrics(), measure: @escaping Measure) -> [ReportPage] {
        var layout = ReportLayout(metrics: metrics, measure: measure)
        for (i, block) in blocks.enumerated() { layout.place(block, next: blocks.indices.contains(i + 1) ? blocks[i + 1] : nil) }
        return layout.pages
    }

    private var room: Double { metrics.contentBottom - y }
    private var atTop: Bool { y <= metrics.contentTop + 0.5 }

    private mutating func newPage() {
        pages.append(ReportPage())
        y = metrics.contentTop
    }

    /// Starts a new page unless `height` fits below the cursor (or the page is still empty).
    private mutating func reserve(_ height: Double) {
        if height > room && !atTop { newPage() }
    }

    private mutating func add(_ item: ReportItem) { pages[pages.count - 1].items.append(item) }

    private mutating func place(_ block: ReportBlock, next: ReportBlock?) {
        let m = metrics
        switch block {
        case .heading(let title):
            let h = measure(title, m.heading, m.contentWidth).height
            // Keep a heading with the beginning of what it introduces.
            reserve(h + 4 + (next.map(minimumHeight) ?? 0))
            add(.text(title, font: m.heading, color: Self.text, x: m.margin, top: y, width: m.contentWidth))
            y += h + 4
        case .paragraph(let text, let font, let color):
            let h = measure(text, font, m.contentWidth).height
            reserve(h)
            add(.text(text, font: font, color: color, x: m.margin, top: y, width: m.contentWidth))
            y += h + m.blockGap
        case .facts(let pairs):
            placeFacts(pairs)
        case .chart(let chart):
            let geometry = ChartLayout.layout(chart, options: m.chartOptions)
            reserve(geometry.height)
            add(.chart(ChartPDF(chart: chart, geometry: geometry, origin: PDFPoint(x: m.margin, y: y))))
            y += geometry.height + m.blockGap
        case .table(let table):
            placeTable(table)
        case .space(let h):
            if !atTop { y += min(h, room) }
        }
    }

    /// What must fit under a heading: a chart whole, a table's header and first row, a paragraph.
    private func minimumHeight(_ block: ReportBlock) -> Double {
        let m = metrics
        switch block {
        case .chart(let chart): return ChartLayout.layout(chart, options: m.chartOptions).height
        case .table(let table):
            return rowHeight(table.columns.map(\.title), table, font: m.smallBold)
                + (table.rows.first.map { rowHeight($0.cells, table, font: m.small) } ?? 0)
        case .paragraph(let text, let font, _): return measure(text, font, m.contentWidth).height
        case .facts(let pairs): return pairs.first.map { measure($0.value, m.body, m.contentWidth * 0.64).height } ?? 0
        case .heading, .space: return 0
        }
    }

    private mutating func placeFacts(_ pairs: [(label: String, value: String)]) {
        let m = metrics, labelWidth = m.contentWidth * 0.34, valueWidth = m.contentWidth - labelWidth
        let bold = PDFFont(size: m.body.size, bold: true)
        for pair in pairs {
            let h = max(measure(pair.label, bold, labelWidth - 6).height, measure(pair.value, m.body, valueWidth).height) + 2
            reserve(h)
            add(.text(pair.label, font: bold, color: Self.text, x: m.margin, top: y, width: labelWidth - 6))
            add(.text(pair.value, font: m.body, color: Self.text, x: m.margin + labelWidth, top: y, width: valueWidth))
            y += h
        }
        y += m.blockGap
    }

    // MARK: tables

    private func columnWidths(_ table: ReportTable) -> [Double] {
        table.columns.map { $0.share * metrics.contentWidth }
    }

    private func rowHeight(_ cells: [String], _ table: ReportTable, font: PDFFont) -> Double {
        let widths = columnWidths(table), pad = metrics.cellPadding
        var h = 0.0
        for (i, cell) in cells.enumerated() where i < widths.count {
            h = max(h, measure(cell, font, widths[i] - 2 * pad).height)
        }
        return h + 2 * pad
    }

    private mutating func placeTable(_ table: ReportTable) {
        let m = metrics
        let header = table.columns.map(\.title)
        let headerHeight = rowHeight(header, table, font: m.smallBold)
        let first = table.rows.first.map { rowHeight($0.cells, table, font: m.small) } ?? 0
        reserve(headerHeight + first)
        placeRow(ReportTable.Row(cells: header), table, font: m.smallBold, height: headerHeight, fill: Self.headerFill)
        for row in table.rows {
            let h = rowHeight(row.cells, table, font: m.small)
            if h > room && !atTop {
                newPage()
                placeRow(ReportTable.Row(cells: header), table, font: m.smallBold, height: headerHeight, fill: Self.headerFill)
            }
            placeRow(row, table, font: m.small, height: h, fill: nil)
        }
        y += m.blockGap
    }

    private mutating func placeRow(_ row: ReportTable.Row, _ table: ReportTable, font: PDFFont, height: Double, fill: PDFColor?) {
        let m = metrics, widths = columnWidths(table), pad = m.cellPadding
        if let fill { add(.box(x: m.margin, y: y, width: m.contentWidth, height: height, fill: fill)) }
        var x = m.margin
        for (i, cell) in row.cells.enumerated() where i < widths.count {
            if let f = row.fills[i] { add(.box(x: x, y: y, width: widths[i], height: height, fill: f)) }
            add(.text(cell, font: font, color: Self.text, x: x + pad, top: y + pad, width: widths[i] - 2 * pad))
            x += widths[i]
        }
        add(.line(from: PDFPoint(x: m.margin, y: y + height), to: PDFPoint(x: m.margin + m.contentWidth, y: y + height),
                  color: Self.rule))
        y += height
    }
}
