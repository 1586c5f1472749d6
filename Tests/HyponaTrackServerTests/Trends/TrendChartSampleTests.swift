import Charts
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HyponaTrackCore
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Renders the six charts of a demo-like patient, checks that each parses as XML and writes them
/// to a temporary folder (and to `HT_CHART_SAMPLE_DIR` when set: `scripts/chart-sample` uses
/// that to refresh docs/images/trend-chart-example.svg) for a person to look at.
@Suite struct TrendChartSampleTests {
    @Test func demoPatientChartsRenderAsWellFormedSVG() throws {
        let profile = TrendChartFixtures.highRisk { $0.studyId = "DEMO-07" }
        let charts = TrendChartFixtures.charts(profile, TrendChartFixtures.demoDays())
        let svgs = charts.map { ChartSVG.render($0, idPrefix: profile.studyId) }
        for (chart, svg) in zip(charts, svgs) {
            let parser = XMLParser(data: Data(svg.utf8))
            #expect(parser.parse(), "\(chart.id): \(String(describing: parser.parserError))")
            #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        }
        var folders = [NSTemporaryDirectory() + "hyponatrack-chart-sample"]
        if let extra = ProcessInfo.processInfo.environment["HT_CHART_SAMPLE_DIR"], !extra.isEmpty { folders.append(extra) }
        let page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Trend charts DEMO-07</title></head><body>\n"
            + svgs.joined(separator: "\n") + "\n</body></html>\n"
        for folder in folders {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (chart, svg) in zip(charts, svgs) {
                try Data((svg + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/trend-chart-\(chart.id).svg"))
            }
            try Data(page.utf8).write(to: URL(fileURLWithPath: folder + "/trend-charts.html"))
        }
    }
}
