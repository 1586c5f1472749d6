import Testing
import QRCode

/// The symbol, its SVG markup and the input it refuses.
@Suite struct QRCodeTests {
    let url = "https://study.example.org/app/activate?study=BR-0042&code=ABCD-EFGH-JKLM"

    @Test func theSymbolIsASquareOfTheVersionsSize() throws {
        let code = try QRCode(text: url)
        #expect((1...40).contains(code.version))
        #expect(code.size == 17 + 4 * code.version)
        #expect(code.modules.count == code.size * code.size)
        // The finder pattern's dark corner and the separator's light module next to it.
        #expect(code.isDark(row: 0, column: 0) && !code.isDark(row: 7, column: 7))
        #expect(!code.isDark(row: -1, column: 0) && !code.isDark(row: 0, column: code.size))
    }

    @Test func moreErrorCorrectionNeedsALargerSymbol() throws {
        let low = try QRCode(text: url, errorCorrection: .low), high = try QRCode(text: url, errorCorrection: .high)
        #expect(high.version > low.version)
    }

    @Test func theSVGIsOnePathWithATitleAndNoStyleOrScript() throws {
        let svg = try QRCode(text: url).svg(moduleSize: 3, quietZone: 4, title: "Activation <link> & \"code\"").description
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.components(separatedBy: "<path").count == 2)
        #expect(svg.contains("shape-rendering=\"crispEdges\""))
        #expect(svg.contains("<title>Activation &lt;link&gt; &amp; &quot;code&quot;</title>"))
        #expect(!svg.contains("style") && !svg.contains("script") && !svg.contains("data:"))
    }

    @Test func theSVGSizeIsTheSymbolAndQuietZoneTimesTheModuleSize() throws {
        let code = try QRCode(text: url)
        let side = code.size + 8
        let svg = code.svg(moduleSize: 5).description
        #expect(svg.contains("viewBox=\"0 0 \(side) \(side)\" width=\"\(side * 5)\" height=\"\(side * 5)\""))
    }

    @Test func textOverTheLimitIsRefusedAsTooLong() {
        let text = "https://study.example.org/" + String(repeating: "a", count: QRCode.maximumInputBytes)
        #expect(throws: QRCodeError.tooLong(bytes: text.utf8.count, limit: QRCode.maximumInputBytes)) { try QRCode(text: text) }
        #expect(throws: Never.self) { try QRCode(text: String(repeating: "a", count: QRCode.maximumInputBytes)) }
    }

    @Test func emptyTextAndTextWithANULAreRefused() {
        #expect(throws: QRCodeError.empty) { try QRCode(text: "") }
        #expect(throws: QRCodeError.containsNUL) { try QRCode(text: "https://a.example/\u{0}b") }
    }
}
