import Foundation
import Testing
import HTJSON

/// How the console and the report write what was measured, over real HTTP against the real daemon:
/// urine SG to three decimals, and an empty chart on its quantity's ordinary axis.
@Suite struct MeasurementDisplayTests {
    static let password = "correct horse battery"

    @Test func theConsoleWritesUrineSGWithThreeDecimals() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "SG-1")
        let day = Study.date(-1)
        #expect(try d.request(.put, "/v1/me/days/\(day)", token: token, body: ["urineSG": 1.01, "fluidIntakeMl": 1500]).status == 200)
        _ = try Study.staff(d, "nina", role: "nurse")
        try ConsoleClient.setPassword(d, "nina", Self.password)
        let console = ConsoleClient(d)
        try console.signIn("nina", Self.password)
        let page = try console.get("/console/patients/SG-1").text
        guard let row = page.range(of: "<tr data-date=\"\(day)\">").map({ String(page[$0.lowerBound...].prefix(800)) }) else {
            throw TestFailure("no day row: \(page.prefix(1000))")
        }
        #expect(row.contains("<td class=\"num\">1.010</td>"), "\(row)")
        #expect(page.contains("support ≥ 1.020"), "the threshold label of the SG chart")
    }

    @Test func aFluidChartWithoutDataOrLimitSaysNoDataOnAnAxisFromZero() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "NOFLUID", [("fluidLimitMl", .null)])
        #expect(try d.request(.put, "/v1/me/days/\(Study.date(-1))", token: token, body: ["weightMorningKg": 80.2]).status == 200)
        let text = try PopplerReport(try ReportScenario.report(d, "NOFLUID").body).text()
        guard let start = text.range(of: "Fluid intake Fluid intake (mL)"),
              let end = text[start.upperBound...].range(of: "Post-operative day") else {
            throw TestFailure("no fluid chart: \(text.prefix(2000))")
        }
        let chart = String(text[start.upperBound..<end.lowerBound])
        #expect(chart.contains("No data recorded"), "\(chart)")
        #expect(chart.range(of: #"-\d"#, options: .regularExpression) == nil, "no negative millilitres on the axis: \(chart)")
        #expect(chart.contains("2000") && chart.contains(" 0 "), "\(chart)")
    }
}
