import Foundation
import HTJSON
import HTTPClient

/// A small study over the real daemon for the export and statistics tests; every figure the
/// tests expect follows from the steps below (dates relative to today in Berlin, PODs from a
/// surgery 12 days ago, so no day lies in the critical window and no missing-check-in alert can
/// fire while the test runs):
///
/// - EXP-A (Europe/London): a staff lab 140 on the day of surgery (POD 0); POD 10 green (80 kg,
///   a morning symptom entry); POD 11 yellow (82 kg: +2.5 %, and 2,000 mL over a 1,500 mL limit).
///   Its yellow alert is acknowledged by nurse `-ward` and resolved by nurse `night.nurse`
///   (sodium 138 — its note quotes an earlier 134 —, drawn on POD 11 at 18:00: a lab value of that day).
/// - EXP-B (Europe/Berlin, craniopharyngioma: high risk): POD 11 red (drowsiness); the red alert
///   stays open, never acknowledged.
/// - EXP-C: enrolled, never activated, withdrawn today: monitoring POD 1 … yesterday, no data.
struct ExportScenario: Sendable {
    let d: TestDaemon
    let tokenA: String
    let nurse: String
    let viewer: String
    let riskA: String
    let alertA: JSONObject
    let alertB: JSONObject

    static let surgeryDaysAgo = 12

    init() throws {
        let d = try TestDaemon()
        self.d = d
        nurse = try Study.staff(d, "-ward", role: "nurse")
        let night = try Study.staff(d, "night.nurse", role: "nurse")
        viewer = try Study.staff(d, "reader", role: "viewer")
        tokenA = try Study.enrollAndActivate(d, "EXP-A", surgeryDaysAgo: Self.surgeryDaysAgo, [("timeZone", "Europe/London")])
        let tokenB = try Study.enrollAndActivate(d, "EXP-B", surgeryDaysAgo: Self.surgeryDaysAgo, [("histology", "craniopharyngioma")])
        try Self.expect(d.request(.post, "/v1/patients", token: d.adminToken, body: Study.profile("EXP-C", surgeryDaysAgo: 12)), 201)
        try Self.expect(d.request(.post, "/v1/patients/EXP-C/withdrawal", token: d.adminToken,
                                  body: ["reason": "moved away", "date": .string(Study.date(0))]), 200)

        try Self.expect(d.request(.post, "/v1/patients/EXP-A/labs", token: nurse,
                                  body: ["sodium": 140, "time": .string(Study.time(Study.date(-12), "10:00"))]), 201)
        let pod10 = Study.date(-2), pod11 = Study.date(-1)
        try Self.expect(d.request(.put, "/v1/me/days/\(pod10)", token: tokenA,
                                  body: ["weightMorningKg": 80.0, "symptoms": [Study.symptom("m10", pod10)]]), 200, level: "green")
        try Self.expect(d.request(.put, "/v1/me/days/\(pod11)", token: tokenA,
                                  body: ["weightMorningKg": 82.0, "fluidIntakeMl": 2000]), 200, level: "yellow")
        try Self.expect(d.request(.put, "/v1/me/days/\(pod11)", token: tokenB, body: ["emergencySymptoms": ["drowsiness"]]), 200,
                        level: "red")
        let enrolled = try d.request(.get, "/v1/patients/EXP-A", token: d.adminToken)
        guard case .string(let risk)? = enrolled["riskClass"] else { throw TestFailure("no risk class: \(enrolled.text)") }
        riskA = risk

        let alerts = try d.request(.get, "/v1/alerts", token: d.adminToken)
        guard case .array(let list) = alerts.json, list.count == 2 else { throw TestFailure("expected two alerts: \(alerts.text)") }
        let objects = list.compactMap { if case .object(let o) = $0 { o } else { nil } }
        guard let a = objects.first(where: { $0["studyId"] == "EXP-A" }), let b = objects.first(where: { $0["studyId"] == "EXP-B" }),
              case .number(let aid)? = a["id"] else { throw TestFailure("unexpected alerts: \(alerts.text)") }
        try Self.expect(d.request(.post, "/v1/alerts/\(Int(aid))/acknowledgement", token: nurse, body: ["note": "called, fine"]), 200)
        let resolved = try d.request(.post, "/v1/alerts/\(Int(aid))/resolution", token: night,
                                     body: ["note": "lab \"134\", retest tomorrow", "sodium": 138,
                                            "sodiumTime": .string(Study.time(Study.date(-1), "18:00"))])
        try Self.expect(resolved, 200)
        guard case .object(let finalA) = resolved.json else { throw TestFailure("no alert") }
        alertA = finalA
        alertB = b
    }

    @discardableResult
    static func expect(_ r: TestDaemon.Response, _ status: Int, level: String? = nil) throws -> TestDaemon.Response {
        guard r.status == status else { throw TestFailure("expected \(status), got \(r.status): \(r.text)") }
        if let level, r["level"] != .string(level) { throw TestFailure("expected \(level): \(r.text)") }
        return r
    }

    /// GET of a file: status and body bytes.
    func download(_ path: String, token: String? = nil) throws -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
        try d.download(path, token: token)
    }

    /// An instant (ISO 8601 from the API) as local wall-clock time `yyyy-MM-dd HH:mm:ss` in `zone`.
    static func local(_ iso: JSONValue?, _ zone: String) -> String {
        guard case .string(let text)? = iso else { return "" }
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = parser.date(from: text) ?? ISO8601DateFormatter().date(from: text) else { return "" }
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: zone)
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return f.string(from: date)
    }

    /// Minutes between two API instants.
    static func minutes(_ from: JSONValue?, _ to: JSONValue?) -> Double? {
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard case .string(let a)? = from, case .string(let b)? = to, let x = parser.date(from: a), let y = parser.date(from: b) else {
            return nil
        }
        return y.timeIntervalSince(x) / 60
    }

    /// Today's date in London (EXP-A's days run up to it).
    static var londonToday: String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "Europe/London")!
        let c = cal.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }
}

extension TestDaemon {
    /// GET of a file (a CSV, a PDF) as `token` (nil: the admin): status, headers and the body
    /// byte for byte (`request` keeps text only).
    func download(_ path: String, token: String? = nil) throws -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
        var headers = HTTPHeaders()
        headers.add(name: "Authorization", value: "Bearer \(token ?? adminToken)")
        let r = try client.send(HTTPClientRequest(method: .get, url: baseURL + path, headers: headers))
        return (r.status, r.headers, r.body)
    }
}
