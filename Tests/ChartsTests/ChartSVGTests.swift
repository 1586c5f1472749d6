import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import Charts

@Suite struct ChartSVGTests {
    /// Parses the SVG and collects element names, attributes and texts.
    final class Collector: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        var texts: [String] = []
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            elements.append((name, attributes))
            text = ""
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if !text.isEmpty { texts.append(text) }
            text = ""
        }
    }

    func parse(_ svg: String) throws -> Collector {
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = Collector()
        parser.delegate = collector
        let ok = parser.parse()
        #expect(ok, "SVG does not parse: \(String(describing: parser.parserError))")
        return collector
    }

    @Test func theSVGIsWellFormedWithRoleTitleAndDesc() throws {
        let svg = ChartSVG.render(ChartFixtures.chart())
        let doc = try parse(svg)
        #expect(doc.elements.first?.name == "svg")
        #expect(doc.elements.first?.attributes["role"] == "img")
        #expect(doc.elements.first?.attributes["aria-labelledby"] == "chart-weight-title chart-weight-desc")
        #expect(doc.elements[1].name == "title")
        #expect(doc.elements[2].name == "desc")
        #expect(doc.texts.contains("Morning weight against baseline."))
    }

    @Test func hostileTextCannotBreakOut() throws {
        let evil = "S<01>&\"'</title><script>alert(1)</script>\u{1}"
        let chart = ChartFixtures.chart(points: [ChartPoint(x: 2, y: 1, note: evil)]) { c in
            c.title = evil
            c.summary = evil
            c.thresholds[0].tag = evil
            c.thresholds[0].label = evil
            c.markers[0].label = evil
            c.xAxis.dayNames[1] = evil
            c.yAxis.unit = evil
            c.id = "x\" onload=\"alert(1)"
        }
        let svg = ChartSVG.render(chart, idPrefix: "p\"><script>")
        #expect(!svg.contains("<script"))
        #expect(!svg.contains("onload=\""))
        let doc = try parse(svg)
        #expect(!doc.elements.contains { $0.name == "script" })
        #expect(doc.elements.allSatisfy { $0.attributes.keys.allSatisfy { !$0.hasPrefix("on") } })
        // The text comes back intact (minus the control character) once parsed.
        #expect(doc.texts.contains("S<01>&\"'</title><script>alert(1)</script>\u{FFFD}"))
    }

    @Test func noInlineStyleAndNoScript() throws {
        let svg = ChartSVG.render(ChartFixtures.chart())
        let doc = try parse(svg)
        #expect(doc.elements.allSatisfy { $0.attributes["style"] == nil })
        #expect(!doc.elements.contains { $0.name == "script" || $0.name == "style" || $0.name == "foreignObject" })
    }

    @Test func thresholdsAreDashedAndNamedInWords() throws {
        let doc = try parse(ChartSVG.render(ChartFixtures.chart()))
        let lines = doc.elements.filter { $0.name == "polyline" && $0.attributes["stroke-dasharray"] != nil }
        #expect(lines.count == 2)
        #expect(doc.texts.contains("yellow"))
        #expect(doc.texts.contains("red"))
        #expect(doc.texts.contains("yellow ≥ 1.5 %"))
    }

    @Test func everyPointHasItsOwnTitle() throws {
        let chart = ChartFixtures.chart(points: [ChartPoint(x: 1, y: 0.2), ChartPoint(x: 5, y: 4.2, flag: .red)])
        let doc = try parse(ChartSVG.render(chart))
        #expect(doc.texts.contains("POD 1: 0.2 %"))
        #expect(doc.texts.contains("POD 5: 4.2 % (red)"))
        #expect(doc.elements.contains { $0.attributes["class"] == "ht-point ht-point-red" })
    }

    @Test func anEmptyChartSaysSo() throws {
        let doc = try parse(ChartSVG.render(ChartFixtures.chart(points: [])))
        #expect(doc.texts.contains("No data recorded"))
    }

    @Test func coordinatesHaveNoExponents() {
        let chart = ChartFixtures.chart(points: [ChartPoint(x: 1, y: 1e-12), ChartPoint(x: 2, y: -1e-12)])
        let bytes = Array(ChartSVG.render(chart).utf8)
        // "1e-12" or "1E+5" (a colour like #1d4ed8 has a digit before an e, but no sign after it).
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        let exponent = bytes.indices.dropLast(2).contains { i in
            digits.contains(bytes[i]) && (bytes[i + 1] == UInt8(ascii: "e") || bytes[i + 1] == UInt8(ascii: "E"))
                && (bytes[i + 2] == UInt8(ascii: "-") || bytes[i + 2] == UInt8(ascii: "+"))
        }
        #expect(!exponent)
    }
}
