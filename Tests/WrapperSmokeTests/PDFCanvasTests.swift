import Testing
import PDFCanvas

/// The cairo/pango wrapper on its own: pages, text measured with the real fonts, and documents
/// rendered from several threads at once (the render lock keeps cairo and pango single-threaded).
@Suite struct PDFCanvasTests {
    @Test func aTwoPageDocumentIsAPDFOfTwoA4Pages() throws {
        let pdf = try PDFDocument.render(title: "t", creator: "c") { doc in
            for n in 1...2 {
                try doc.page { page in
                    page.text("Page \(n)", x: 40, baseline: 40, font: PDFFont(size: 12))
                    page.stroke([PDFPoint(x: 40, y: 50), PDFPoint(x: 200, y: 50)], color: .black, dash: [3, 2])
                }
            }
            #expect(doc.pageCount == 2)
        }
        let text = String(decoding: pdf, as: UTF8.self)
        #expect(pdf.starts(with: Array("%PDF-".utf8)))
        #expect(text.contains("/MediaBox [ 0 0 595 842 ]"))
        #expect(text.components(separatedBy: "/Type /Page\n").count - 1 == 2 || text.contains("/Count 2"))
    }

    @Test func textIsMeasuredInPointsAndWrapsAtTheGivenWidth() throws {
        _ = try PDFDocument.render(title: "t", creator: "c") { doc in
            let font = PDFFont(size: 10)
            let line = doc.measure("Weight change from baseline", font: font)
            #expect(line.width > 100 && line.width < 160, "\(line)")
            #expect(line.height > 10 && line.height < 14 && line.baseline > 7 && line.baseline < line.height)
            let wrapped = doc.measure("Weight change from baseline", font: font, width: 60)
            #expect(wrapped.width <= 60 && wrapped.height > 2.5 * line.height, "\(wrapped)")
            #expect(doc.measure("W", font: PDFFont(size: 20)).width > doc.measure("W", font: font).width * 1.8)
        }
    }

    @Test func documentsRenderedConcurrentlyAreEachComplete() async throws {
        let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<8 {
                group.addTask {
                    try PDFDocument.render(title: "doc \(i)", creator: "c") { doc in
                        try doc.page { $0.paragraph(String(repeating: "text \(i) ", count: 200), x: 40, top: 40, width: 500,
                                                    font: PDFFont(size: 9)) }
                    }.count
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sizes.count == 8 && sizes.allSatisfy { $0 > 1000 })
    }
}
