import Foundation
import HTJSON
import HTTPClient

/// Patients for the report tests over the real daemon (dates relative to today in Berlin):
///
/// - RPT-LONG (craniopharyngioma: high risk, monitoring extended to POD 21), surgery 22 days ago,
///   so today is past the window and no missing-data alert can fire while the test runs. Every
///   POD 1–21 is sent: a morning weight of 80 kg + POD/100 (each day's weight is unique, so each
///   row can be found in the PDF), 82 kg + POD/100 on even PODs (weight_gain_pct yellow), and
///   drowsiness on POD 7, 13 and 19 (red). Every alert but the last is acknowledged by
///   `ann.nurse` and resolved by `night.nurse` (sodium 134); lab sodium 131 on POD 7, 136 on POD 15.
/// - RPT-EMPTY: enrolled, never activated, no days.
struct ReportScenario: Sendable {
    let d: TestDaemon
    let viewer: String
    let patientToken: String
    /// The daemon's answer to each day sent, by POD.
    let days: [Int: JSONObject]
    let alertIds: [Int]
    let surgeryDate: String

    static let surgeryDaysAgo = 22
    static let redPODs: Set<Int> = [7, 13, 19]

    static func weight(pod: Int) -> Double { (pod % 2 == 0 ? 82 : 80) + Double(pod) / 100 }

    init() throws {
        let d = try TestDaemon()
        self.d = d
        let nurse = try Study.staff(d, "ann.nurse", role: "nurse")
        let night = try Study.staff(d, "night.nurse", role: "nurse")
        viewer = try Study.staff(d, "reader", role: "viewer")
        surgeryDate = Study.date(-Self.surgeryDaysAgo)
        patientToken = try Study.enrollAndActivate(d, "RPT-LONG", surgeryDaysAgo: Self.surgeryDaysAgo,
                                                   [("histology", "craniopharyngioma")])
        try ExportScenario.expect(d.request(.post, "/v1/patients", token: d.adminToken,
                                            body: Study.profile("RPT-EMPTY", surgeryDaysAgo: 3)), 201)
        var days: [Int: JSONObject] = [:]
        // Each finding is called about and resolved before the next day comes in, so every day
        // with a finding opens an alert of its own (an unresolved one would take later days in).
        func resolveOpenAlerts() throws {
            let open = try d.request(.get, "/v1/alerts?open=true", token: d.adminToken)
            guard case .array(let list) = open.json else { throw TestFailure("no alerts: \(open.text)") }
            for id in list.compactMap({ v -> Int? in if case .object(let o) = v, case .number(let n)? = o["id"] { Int(n) } else { nil } }) {
                try ExportScenario.expect(d.request(.post, "/v1/alerts/\(id)/acknowledgement", token: nurse, body: ["note": "called"]), 200)
                try ExportScenario.expect(d.request(.post, "/v1/alerts/\(id)/resolution", token: night,
                                                    body: ["note": "lab drawn", "sodium": 134]), 200)
            }
        }
        for pod in 1...21 {
            if pod > 1 { try resolveOpenAlerts() }
            let date = Study.date(pod - Self.surgeryDaysAgo)
            var body = JSONObject([("weightMorningKg", .double(Self.weight(pod: pod))), ("fluidIntakeMl", 1400), ("urineSG", 1.01)])
            if Self.redPODs.contains(pod) { body["emergencySymptoms"] = ["drowsiness"] }
            let r = try ExportScenario.expect(d.request(.put, "/v1/me/days/\(date)", token: patientToken, body: .object(body)), 200)
            guard case .object(let o) = r.json else { throw TestFailure("no day: \(r.text)") }
            days[pod] = o
        }
        self.days = days
        for (pod, value) in [(7, 131.0), (15, 136.0)] {
            try ExportScenario.expect(d.request(.post, "/v1/patients/RPT-LONG/labs", token: nurse,
                                                body: ["sodium": .double(value), "time": .string(Study.time(Study.date(pod - Self.surgeryDaysAgo), "10:00"))]), 201)
        }
        let alerts = try d.request(.get, "/v1/alerts", token: d.adminToken)
        guard case .array(let list) = alerts.json else { throw TestFailure("no alerts: \(alerts.text)") }
        let ids = list.compactMap { v -> Int? in if case .object(let o) = v, case .number(let n)? = o["id"] { Int(n) } else { nil } }.sorted()
        guard ids.count >= 12 else { throw TestFailure("expected many alerts: \(alerts.text.prefix(400))") }
        alertIds = ids
    }

    /// GET of the report: status, headers, bytes.
    func report(_ studyId: String, query: String = "", token: String? = nil) throws -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
        try Self.report(d, studyId, query: query, token: token)
    }

    /// GET of a patient's report from any daemon (the admin's token unless `token` is given).
    static func report(_ d: TestDaemon, _ studyId: String, query: String = "",
                       token: String? = nil) throws -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
        var headers = HTTPHeaders()
        headers.add(name: "Authorization", value: "Bearer \(token ?? d.adminToken)")
        let r = try d.client.send(HTTPClientRequest(method: .get, url: d.baseURL + "/v1/patients/\(studyId)/report.pdf\(query)",
                                                    headers: headers))
        return (r.status, r.headers, r.body)
    }

    /// A number as the report writes it in English: at most `decimals` decimals, no trailing zeros.
    static func number(_ v: Double, decimals: Int = 3) -> String {
        var s = String(format: "%.\(decimals)f", v)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s
    }
}

/// poppler-utils on a PDF: page sizes, fonts, text, word boxes.
struct PopplerReport {
    let path: String

    init(_ bytes: [UInt8]) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).pdf").path
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { throw TestFailure("cannot write \(path)") }
    }

    func tool(_ name: String, _ args: [String]) throws -> String {
        let r = try CLIRunner.run("/usr/bin/\(name)", args + [path] + (name == "pdftotext" ? ["-"] : []))
        guard r.status == 0 else { throw TestFailure("\(name) failed (\(r.status)): \(r.stderr)") }
        return r.stdout
    }

    var info: String { get throws { try tool("pdfinfo", []) } }

    var pageCount: Int {
        get throws {
            let line = try info.split(separator: "\n").first { $0.hasPrefix("Pages:") } ?? ""
            return Int(line.dropFirst("Pages:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
    }

    /// "595 x 842 pts (A4)" for each page.
    var pageSizes: [String] {
        get throws {
            try tool("pdfinfo", ["-f", "1", "-l", "1000"]).split(separator: "\n").filter { $0.hasPrefix("Page") && $0.contains(" size:") }
                .map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The rows of `pdffonts` after its two header lines.
    var fonts: [String] { get throws { Array(try tool("pdffonts", []).split(separator: "\n").dropFirst(2).map(String.init)) } }

    /// The text with every run of white space made one space (wrapped cells read as one line);
    /// `layout`: in the physical layout, so a row of label and value reads as one line.
    func text(page: Int? = nil, layout: Bool = false) throws -> String {
        let range = page.map { ["-f", "\($0)", "-l", "\($0)"] } ?? []
        return try tool("pdftotext", range + (layout ? ["-layout"] : [])).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Every word's box (points), from `pdftotext -bbox`.
    var wordBoxes: [(word: String, xMin: Double, yMin: Double, xMax: Double, yMax: Double)] {
        get throws {
            let html = try tool("pdftotext", ["-bbox"])
            let regex = try NSRegularExpression(pattern: #"<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>"#)
            return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { m in
                func g(_ i: Int) -> String { String(html[Range(m.range(at: i), in: html)!]) }
                return (g(5), Double(g(1)) ?? -1, Double(g(2)) ?? -1, Double(g(3)) ?? -1, Double(g(4)) ?? -1)
            }
        }
    }
}
