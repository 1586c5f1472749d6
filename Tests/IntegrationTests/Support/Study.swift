import Foundation
import HTJSON
import HTTPClient

/// Study set-up steps over the real API, with dates relative to the real today in Berlin
/// (the daemon reads the system clock).
enum Study {
    static let zone = TimeZone(identifier: "Europe/Berlin")!

    /// Today's date in Berlin, shifted by `days`.
    static func date(_ days: Int) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        let d = cal.date(byAdding: .day, value: days, to: Date())!
        let c = cal.dateComponents([.year, .month, .day], from: d)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    /// The Berlin UTC offset on that date at noon, e.g. "+01:00".
    static func offset(_ date: String) -> String {
        let f = DateFormatter()
        f.timeZone = zone
        f.dateFormat = "yyyy-MM-dd HH:mm"
        let seconds = zone.secondsFromGMT(for: f.date(from: date + " 12:00")!)
        return String(format: "%@%02d:%02d", seconds < 0 ? "-" : "+", abs(seconds) / 3600, abs(seconds) % 3600 / 60)
    }

    /// `clock` on `date` in Berlin, e.g. "2026-12-06T08:00:00+01:00". The server refuses an item
    /// timed more than 15 minutes after its clock (a phone sends late, never early), so a time
    /// still to come today is sent as a minute ago: a test run before breakfast stays valid.
    static func time(_ date: String, _ clock: String = "08:00") -> String {
        let wanted = "\(date)T\(clock):00\(offset(date))"
        guard let instant = ISO8601DateFormatter().date(from: wanted), instant > Date() else { return wanted }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        return f.string(from: Date().addingTimeInterval(-60))
    }

    static func profile(_ studyId: String, surgeryDaysAgo: Int = 6, _ extra: [(String, JSONValue)] = []) -> JSONValue {
        var o = JSONObject([("studyId", .string(studyId)), ("surgeryDate", .string(date(-surgeryDaysAgo))),
                            ("timeZone", "Europe/Berlin"), ("age", 50), ("sex", "male"), ("bmi", 27.0),
                            ("baselineWeightKg", 80.0), ("fluidLimitMl", 1500.0), ("baselineReactionTimeMs", 600.0)])
        for (k, v) in extra { o[k] = v }
        return .object(o)
    }

    /// Enrolls and activates a patient; returns the patient token.
    static func enrollAndActivate(_ d: TestDaemon, _ studyId: String, surgeryDaysAgo: Int = 6,
                                  _ extra: [(String, JSONValue)] = []) throws -> String {
        let e = try d.request(.post, "/v1/patients", token: d.adminToken, body: profile(studyId, surgeryDaysAgo: surgeryDaysAgo, extra))
        guard e.status == 201, case .string(let code)? = e["activationCode"] else { throw TestFailure("enroll failed: \(e.text)") }
        let a = try d.request(.post, "/v1/activate", body: ["studyId": .string(studyId), "code": .string(code)])
        guard a.status == 200, case .string(let token)? = a["token"] else { throw TestFailure("activation failed: \(a.text)") }
        return token
    }

    static func symptom(_ id: String, _ date: String, slot: String = "morning", nausea: Int = 0, headache: Int = 0,
                        confusion: Int = 0, vas: Int = 9) -> JSONValue {
        ["id": .string(id), "time": .string(time(date, slot == "morning" ? "08:00" : "20:00")), "slot": .string(slot),
         "nausea": .int(nausea), "headache": .int(headache), "fatigue": 0, "confusion": .int(confusion), "muscleCramps": 0,
         "vas": .int(vas)]
    }

    /// Creates a staff member and returns their token.
    /// `allSites`: the member works for every site (else for the study's only site).
    static func staff(_ d: TestDaemon, _ name: String, role: String, allSites: Bool = false, sites: [String] = []) throws -> String {
        var body = JSONObject([("name", .string(name)), ("role", .string(role))])
        if allSites { body["allSites"] = true }
        if !sites.isEmpty { body["sites"] = .array(sites.map { .string($0) }) }
        let r = try d.request(.post, "/v1/staff", token: d.adminToken, body: .object(body))
        guard r.status == 201, case .string(let token)? = r["token"] else { throw TestFailure("staff add failed: \(r.text)") }
        return token
    }
}

/// Runs the real `hyponatrack` CLI.
enum CLIRunner {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        /// Standard output byte for byte (a PDF is not text).
        var stdoutBytes: [UInt8] = []
    }

    /// `directory`: the working directory (nil: this process's).
    static func run(_ args: [String], server: String, token: String?, stdin: String? = nil,
                    directory: URL? = nil) throws -> Result {
        var env = ProcessInfo.processInfo.environment
        env["HYPONATRACK_SERVER"] = server
        if let token { env["HYPONATRACK_TOKEN"] = token } else { env.removeValue(forKey: "HYPONATRACK_TOKEN") }
        return try run(Repo.cli, args, environment: env, stdin: stdin, directory: directory)
    }

    /// Runs `executable` to its end with `environment` (all of it); its status and output.
    static func run(_ executable: String, _ args: [String],
                    environment env: [String: String] = ProcessInfo.processInfo.environment, stdin: String? = nil,
                    directory: URL? = nil) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = args
        p.environment = env
        if let directory { p.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let input = stdin.map { _ in Pipe() }
        if let input { p.standardInput = input }
        try p.run()
        if let input, let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try? input.fileHandleForWriting.close()
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        let status = ChildExit.wait(p)
        return Result(status: status, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self),
                      stdoutBytes: [UInt8](o))
    }
}
