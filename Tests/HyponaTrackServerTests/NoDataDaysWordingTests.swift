import Foundation
import HTJSON
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// `no_data_2d` keeps its code whatever `missingData.noData.days` says, but everything a person
/// reads names the days the rules in force count (docs/clinical-rules.md §8): the console, the
/// PDF report, the statistics (and with them the CLI's table). The real daemon in-process, on a
/// settable clock, with a rule set that counts three silent days.
@Suite struct NoDataDaysWordingTests {
    static let german: HTTPHeaders = ["Accept-Language": "de-DE,de;q=0.9"]

    /// A daemon whose reminders.json counts `days` silent days, with patient ND-3 operated on
    /// 2026-03-02, activated 03-04 09:00 and silent since: under three days, `no_data_2d` of
    /// 03-06 is decided at 03-07 00:00 (under the shipped two it would be 03-05's, a day earlier).
    static func silentPatient(days: Int) throws -> (harness: InProcessApplication, rules: URL) {
        let rules = FileManager.default.temporaryDirectory.appendingPathComponent("ht-nodata-\(UUID().uuidString).json")
        let shipped = Simulation.repo.appendingPathComponent("config/reminders.json")
        guard case .object(var reminders) = try JSONParser.parse([UInt8](try Data(contentsOf: shipped))),
              case .object(var missing)? = reminders["missingData"], case .object(var noData)? = missing["noData"] else {
            throw TestError("config/reminders.json has no missingData.noData")
        }
        noData["days"] = .int(days)
        missing["noData"] = .object(noData)
        reminders["missingData"] = .object(missing)
        try JSONSerializer.string(.object(reminders), pretty: true).write(to: rules, atomically: true, encoding: .utf8)
        let clock = SimulationClock(Berlin.at("2026-03-04", "09:00"))
        let h = try InProcessApplication(clock: clock) { $0.ruleFiles["reminders.json"] = rules }
        _ = try h.enrollAndActivate("ND-3", surgeryDate: "2026-03-02")
        let decided = Berlin.at("2026-03-07", "00:15")
        clock.set(decided)
        try h.app.domain.scheduler.tick(now: decided)
        return (h, rules)
    }

    @Test func theConsoleNamesTheConfiguredSilentDaysOfANoDataAlert() throws {
        let (h, rules) = try Self.silentPatient(days: 3)
        defer { try? FileManager.default.removeItem(at: rules) }
        var session = try h.consoleSession()
        let english = String(decoding: h.console.send(.get, "/console/patients/ND-3", headers: session).body, as: UTF8.self)
        #expect(english.contains("<td>no data for 3 days</td>")
                && english.contains("<li title=\"no_data_2d\" data-code=\"no_data_2d\" data-level=\"red\">No data for 3 days</li>"),
                "\(english)")
        for (name, value) in Self.german { session.add(name: name, value: value) }
        let inbox = String(decoding: h.console.send(.get, "/console/alerts", headers: session).body, as: UTF8.self)
        #expect(inbox.contains("<p>3 Tage ohne Daten</p>") && inbox.contains("data-level=\"red\">3 Tage ohne Daten</li>"), "\(inbox)")
        #expect(!inbox.contains("2 Tage") && !inbox.contains("zwei Tage"))
        let statistics = String(decoding: h.console.send(.get, "/console/statistics", headers: session).body, as: UTF8.self)
        #expect(statistics.contains("Alarme „3 Tage ohne Daten“ je 100 Patiententage"), "\(statistics)")
    }

    @Test func theReportAndTheStatisticsNameTheConfiguredSilentDays() throws {
        let (h, rules) = try Self.silentPatient(days: 3)
        defer { try? FileManager.default.removeItem(at: rules) }
        let stats = h.send(.get, "/v1/statistics")
        guard case .object(let o) = stats.json else { throw TestError("statistics: \(stats.json)") }
        #expect(o["noDataDays"] == 3, "what the CLI's table labels no_data_2d with")

        let report = h.client.send(.get, "/v1/patients/ND-3/report.pdf?lang=de", headers: ["Authorization": "Bearer \(h.adminToken)"])
        #expect(report.status == .ok)
        let text = try Self.pdfText(report.body)
        #expect(text.contains("3 Tage ohne Daten, Rot") && text.contains("3 Tage ohne Daten no_data_2d"), "\(text)")
        #expect(!text.contains("2 Tage ohne Daten") && !text.contains("zwei Tage"))
    }

    /// What pdftotext reads in `pdf`, whitespace runs as one space.
    static func pdfText(_ pdf: [UInt8]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        p.arguments = ["-", "-"]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        input.fileHandleForWriting.write(Data(pdf))
        try input.fileHandleForWriting.close()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: text, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
