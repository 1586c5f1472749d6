import Foundation
import Testing
import HTJSON

/// The clinical report over real HTTP against the real daemon (docs/product.md, "The clinical
/// report (PDF)", "Report"), read back with poppler's tools: pdfinfo (A4), pdffonts (embedded),
/// pdftotext (what it says, and where).
@Suite(.serialized) struct ReportTests {
    static let scenario = Result { try ReportScenario() }

    func scenario() throws -> ReportScenario { try Self.scenario.get() }

    @Test func theReportIsAnA4PDFWithEveryFontEmbeddedAndNamedAfterTheStudyID() throws {
        let s = try scenario()
        let r = try s.report("rpt-long", token: s.viewer)
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "application/pdf")
        #expect(r.headers["content-disposition"] == "attachment; filename=\"hyponatrack-report-RPT-LONG.pdf\"")
        #expect(r.body.starts(with: Array("%PDF-".utf8)))
        let pdf = try PopplerReport(r.body)
        let sizes = try pdf.pageSizes
        #expect(sizes.count == (try pdf.pageCount) && sizes.count > 1)
        #expect(sizes.allSatisfy { $0 == "595 x 842 pts (A4)" }, "\(sizes)")
        let fonts = try pdf.fonts
        #expect(!fonts.isEmpty && fonts.allSatisfy { $0.contains("DejaVuSans") }, "\(fonts)")
        // Columns: name, type, encoding, emb, sub, uni, object, generation; "emb" is fourth from the end.
        #expect(fonts.allSatisfy { row in let c = row.split(separator: " "); return c.count >= 7 && c[c.count - 5] == "yes" }, "\(fonts)")
        #expect(try pdf.info.contains("Title:           HyponaTrack clinical report RPT-LONG"))
    }

    @Test func theReportStatesTheFactsEveryDayWithItsReasonsAndThresholdsTheAlertsAndTheLabs() throws {
        let s = try scenario()
        let pdf = try PopplerReport(try s.report("RPT-LONG").body)
        let text = try pdf.text(), facts = try pdf.text(page: 1, layout: true)
        for fact in ["Study ID RPT-LONG", "Surgery date \(s.surgeryDate)", "Risk class high", "Kat A / B / C",
                     "Monitoring period \(Study.date(1 - ReportScenario.surgeryDaysAgo)) – \(Study.date(-1)) (POD 1–21), extended to POD 21",
                     "Time zone (all times) Europe/Berlin", "Not a validated medical device."] {
            #expect(facts.contains(fact), "\(fact)")
        }
        guard case .string(let version)? = s.days[1]?["rulesVersion"] else { throw TestFailure("no rules version") }
        #expect(facts.contains("Rules version \(version)"))
        for title in ["Weight change from baseline", "Fluid intake", "Urine specific gravity", "Symptom score", "Lab sodium",
                      "Reaction-time slowing"] {
            #expect(text.contains(title), "\(title)")
        }
        for pod in 1...21 {
            let date = Study.date(pod - ReportScenario.surgeryDaysAgo)
            guard let day = s.days[pod], case .string(let level)? = day["level"], case .array(let reasons)? = day["reasons"] else {
                throw TestFailure("day \(pod)")
            }
            let word = level.prefix(1).uppercased() + level.dropFirst()
            // Urine SG is written to three decimals (1.010, not 1.01).
            #expect(text.contains("\(date) (\(pod)) \(word) \(ReportScenario.number(ReportScenario.weight(pod: pod), decimals: 2)) 1400 1.010"),
                    "POD \(pod)")
            for case .object(let reason) in reasons {
                guard case .string(let code)? = reason["code"], case .string(let l)? = reason["level"],
                      case .number(let value)? = reason["value"], case .number(let t)? = reason["threshold"] else { continue }
                #expect(text.contains(" \(code)"), "POD \(pod): the code under the words, \(code)")
                if code == "sodium_low" {
                    // The sodium itself and the sodium it fires at, never the deficit (140 − Na).
                    let sodium = String(format: "%.0f", 140 - value), limit = String(format: "%.0f", (140 - t + 1e-9).rounded(.down))
                    #expect(text.contains("Sodium \(sodium) mmol/L (\(l) at ≤ \(limit)) sodium_low"), "POD \(pod): \(sodium) ≤ \(limit)")
                }
            }
        }
        // POD 2: (82.02 − 80) / 80 = 2.525 % against 1.5 % × f 0.8 (high risk, outside the critical window).
        #expect(text.contains("Weight +2.5 % above baseline (yellow from +1.2 %) weight_gain_pct"), "the words above the code")
        #expect(!text.contains(", threshold "), "no bare thresholds left")
        for id in s.alertIds { #expect(text.contains("#\(id) "), "alert \(id)") }
        #expect(text.components(separatedBy: "by ann.nurse").count - 1 == s.alertIds.count - 1)
        #expect(text.components(separatedBy: "by night.nurse").count - 1 == s.alertIds.count - 1)
        #expect(text.contains("sodium 134") && text.contains("not yet"))
        #expect(text.contains("\(Study.date(7 - ReportScenario.surgeryDaysAgo)) 10:00 \(Study.date(7 - ReportScenario.surgeryDaysAgo)) (7) 131"))
        #expect(text.contains("(15) 136"))
    }

    @Test func aLongMonitoringWithManyAlertsFlowsOntoMorePagesEachNumberedWithNothingOutsideTheMargins() throws {
        let s = try scenario()
        let long = try PopplerReport(try s.report("RPT-LONG").body)
        let empty = try PopplerReport(try s.report("RPT-EMPTY").body)
        let pages = try long.pageCount
        #expect(pages > (try empty.pageCount) && pages >= 4, "\(pages) pages")
        for page in 1...pages {
            let text = try long.text(page: page)
            #expect(text.contains("Page \(page) of \(pages)"), "page \(page)")
            #expect(text.contains("Study ID RPT-LONG"), "running header on page \(page)")
            #expect(text.contains("Generated at "), "page \(page)")
        }
        let boxes = try long.wordBoxes
        #expect(boxes.count > 500)
        let outside = boxes.filter { $0.xMin < 30 || $0.xMax > 565 || $0.yMin < 15 || $0.yMax > 827 }
        #expect(outside.isEmpty, "\(outside.prefix(5))")
    }

    @Test func aPatientWithNoDaysGetsAValidReportThatSaysNoDataRecorded() throws {
        let s = try scenario()
        let r = try s.report("RPT-EMPTY")
        #expect(r.status == 200)
        let pdf = try PopplerReport(r.body)
        #expect(try pdf.pageSizes.allSatisfy { $0 == "595 x 842 pts (A4)" })
        let text = try pdf.text()
        #expect(text.contains("Study ID RPT-EMPTY"))
        #expect(text.contains("Days No data recorded."), "\(text.prefix(2000))")
        #expect(text.components(separatedBy: "No data recorded").count - 1 >= 7, "the day table and each of the six charts")
        #expect(text.contains("No alerts.") && text.contains("No lab values.") && text.contains("Symptoms by day No symptom entries."))
    }

    @Test func withLangDeTheReportIsInGerman() throws {
        let s = try scenario()
        let r = try s.report("RPT-LONG", query: "?lang=de")
        #expect(r.status == 200)
        let pdf = try PopplerReport(r.body)
        let text = try pdf.text(), facts = try pdf.text(page: 1, layout: true)
        #expect(facts.contains("OP-Datum \(ReportTests.german(s.surgeryDate))") && facts.contains("Risikoklasse hoch"), "\(facts)")
        for word in ["klinischer Bericht", "Studien-ID RPT-LONG",
                     "Kein validiertes Medizinprodukt", "Seite 1 von \(try pdf.pageCount)", "Gewichtsänderung zum Ausgangswert",
                     "Postoperativer Tag", "Gründe (Regelcode darunter)", "Gelb", "Rot", "Bestätigt", "von ann.nurse",
                     "Natrium 134", "Gewicht +2,5 % über dem Ausgangsgewicht (Gelb ab +1,2 %) weight_gain_pct"] {
            #expect(text.contains(word), "\(word)")
        }
        #expect(!text.contains("(yellow") && !text.contains("(red") && !text.contains("mmol/L"), "German reasons throughout")
        #expect(!text.contains("Page 1 of"))
        #expect(try s.report("RPT-LONG", query: "?lang=en").status == 200)
    }

    @Test func reportsAreForStaffOnlyAndUnknownPatientsOrLanguagesAreRefusedNamingThem() throws {
        let s = try scenario()
        #expect(try s.report("RPT-LONG", token: s.patientToken).status == 403)
        #expect(try s.d.request(.get, "/v1/patients/RPT-LONG/report.pdf").status == 401)
        let missing = try s.d.request(.get, "/v1/patients/NOBODY/report.pdf", token: s.d.adminToken)
        #expect(missing.status == 404 && missing.errorCode == "not_found")
        #expect(missing.text.contains("NOBODY"), "\(missing.text)")
        let bad = try s.d.request(.get, "/v1/patients/RPT-LONG/report.pdf?lang=fr", token: s.d.adminToken)
        #expect(bad.status == 400 && bad.errorField == "lang", "\(bad.text)")
    }

    @Test func everyReportIsAuditedWithWhoWhichPatientAndTheLanguage() throws {
        let s = try scenario()
        _ = try s.report("RPT-EMPTY", query: "?lang=de", token: s.viewer)
        let trail = try s.d.request(.get, "/v1/audit?subject=RPT-EMPTY&limit=1000", token: s.d.adminToken)
        #expect(trail.text.contains("\"action\":\"export.report\""), "\(trail.text.suffix(600))")
        #expect(trail.text.contains("\"actor\":\"staff:reader\""))
        #expect(trail.text.contains("\"language\":\"de\""))
    }

    @Test func theCLIWritesTheReportToAFileOrStandardOutputAndAnUnknownPatientExitsOne() throws {
        let s = try scenario()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cli-report-\(UUID().uuidString).pdf").path
        let written = try CLIRunner.run(["report", "RPT-LONG", "-o", file, "--lang", "de"], server: s.d.baseURL, token: s.d.adminToken)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.contains("Wrote the report of RPT-LONG"))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(try PopplerReport(bytes).text().contains("Seite 1 von"))
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let stdout = try CLIRunner.run(["report", "RPT-EMPTY"], server: s.d.baseURL, token: s.d.adminToken)
        #expect(stdout.status == 0 && stdout.stdout.hasPrefix("%PDF-"))
        // -o - is standard output, byte for byte, as curl and tar read it: no file named "-", no summary.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dash = try CLIRunner.run(["report", "RPT-LONG", "-o", "-", "--lang", "de"], server: s.d.baseURL, token: s.d.adminToken,
                                     directory: directory)
        #expect(dash.status == 0 && dash.stderr.isEmpty, "\(dash.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "no file named -")
        #expect(dash.stdoutBytes.starts(with: Array("%PDF-".utf8)) && !dash.stdout.contains("Wrote the report"))
        #expect(String(validating: dash.stdoutBytes, as: UTF8.self) == nil, "binary: a PDF is not UTF-8 text")
        #expect(dash.stdoutBytes.count == bytes.count, "the same report as -o FILE wrote (\(dash.stdoutBytes.count) vs \(bytes.count))")
        #expect(try PopplerReport(dash.stdoutBytes).text().contains("Seite 1 von"))
        let unknown = try CLIRunner.run(["report", "NOBODY"], server: s.d.baseURL, token: s.d.adminToken)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no patient with study ID NOBODY"), "\(unknown.stderr)")
        let usage = try CLIRunner.run(["report", "RPT-LONG", "--lang", "fr"], server: s.d.baseURL, token: s.d.adminToken)
        #expect(usage.status == 64 && usage.stderr.contains("--lang"))
    }
}
