import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import HTJSON
import HTTPClient

/// A temporary configuration directory: the rule files copied from `config/` (reminders.json
/// optionally edited), a `whsec_` secret file of mode 0600, hooks, escalation ladders and a fast
/// scheduler (`"scheduler": {"intervalSeconds": 0.2}`).
struct HookConfig {
    typealias Ladder = [(afterMinutes: Double, hooks: [String])]

    let directory: URL
    let secret: String
    let secretFile: URL
    var hooks: [JSONValue] = []
    var red: Ladder = []
    var yellow: Ladder = []
    var schedulerInterval = 0.2
    /// Edits `reminders.json` before it is written (for reminder times near the real now).
    var reminders: ((inout JSONObject) -> Void)?
    /// The `push` block, if any.
    var push: JSONValue?
    /// `escalation.sites`: by site code, the site's own ladders (`red`, `yellow`).
    var siteLadders: [String: (red: Ladder?, yellow: Ladder?)] = [:]
    /// The `app` block, if any (clinic hours, numbers).
    var app: JSONValue?
    var studyTimeZone = "Europe/Berlin"

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hookcfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        secret = Hooks.makeSecret()
        secretFile = directory.appendingPathComponent("webhook-secret")
        try Hooks.writeFile(secretFile.path, secret + "\n")
    }

    /// A webhook; `sites`: the sites whose patients' events it hears (nil: every site's).
    mutating func webhook(_ name: String, url: String, events: [String] = [], sites: [String]? = nil) {
        var hook = JSONObject([("name", .string(name)), ("type", "webhook"), ("url", .string(url)), ("secretFile", "webhook-secret"),
                               ("events", .array(events.map { .string($0) }))])
        if let sites { hook["sites"] = .array(sites.map { .string($0) }) }
        hooks.append(.object(hook))
    }

    mutating func command(_ name: String, path: String, args: [String] = [], timeoutSeconds: Double = 10, events: [String] = []) {
        hooks.append(["name": .string(name), "type": "command", "path": .string(path), "args": .array(args.map { .string($0) }),
                      "timeoutSeconds": .number(timeoutSeconds), "events": .array(events.map { .string($0) })])
    }

    /// An e-mail hook to `receiver` with its CA and a 0600 credentials file `user:password`.
    mutating func email(_ name: String, receiver: SMTPReceiver, to: [String], events: [String] = []) throws {
        let credentials = directory.appendingPathComponent("\(name)-smtp-credentials")
        try Hooks.writeFile(credentials.path, "\(receiver.user):\(receiver.password)\n")
        hooks.append(["name": .string(name), "type": "email", "smtpUrl": .string(receiver.url), "from": "hyponatrack@clinic.example",
                      "to": .array(to.map { .string($0) }), "credentialsFile": .string(credentials.lastPathComponent),
                      "caFile": .string(receiver.caFile), "events": .array(events.map { .string($0) })])
    }

    /// Writes the rule files and `hyponatrack.json`; returns the latter.
    func write() throws -> URL {
        for name in ["risk-model.json", "thresholds.json", "reminders.json", "instructions.json"] {
            let target = directory.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: target)
            if name == "reminders.json", let edit = reminders {
                let data = try Data(contentsOf: Repo.config.appendingPathComponent(name))
                guard case .object(var o) = try JSONParser.parse([UInt8](data)) else { throw TestFailure("reminders.json") }
                edit(&o)
                try JSONSerializer.string(.object(o), pretty: true).write(to: target, atomically: true, encoding: .utf8)
            } else {
                try FileManager.default.copyItem(at: Repo.config.appendingPathComponent(name), to: target)
            }
        }
        func ladder(_ l: Ladder) -> JSONValue {
            .array(l.map { ["afterMinutes": .number($0.afterMinutes), "hooks": .array($0.hooks.map { .string($0) })] })
        }
        var sites = JSONObject()
        for (code, own) in siteLadders.sorted(by: { $0.key < $1.key }) {
            var ladders = JSONObject()
            if let red = own.red { ladders["red"] = ladder(red) }
            if let yellow = own.yellow { ladders["yellow"] = ladder(yellow) }
            sites[code] = .object(ladders)
        }
        var config: JSONValue = [
            "listen": "127.0.0.1:8750", "defaultTimeZone": "Europe/Berlin", "studyTimeZone": .string(studyTimeZone),
            "rules": ["riskModel": "risk-model.json", "thresholds": "thresholds.json",
                      "reminders": "reminders.json", "instructions": "instructions.json"],
            "hooks": .array(hooks),
            "escalation": ["red": ladder(red), "yellow": ladder(yellow), "sites": .object(sites)],
            "scheduler": ["intervalSeconds": .number(schedulerInterval)],
        ]
        for (key, block) in [("push", push), ("app", app)] {
            if let block, case .object(var o) = config {
                o[key] = block
                config = .object(o)
            }
        }
        let file = directory.appendingPathComponent("hyponatrack.json")
        try JSONSerializer.string(config, pretty: true).write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}

/// The real daemon on a `HookConfig`, an all-sites nurse (she may verify the audit chain), and
/// the steps and waits the hook tests share.
final class HookRig: @unchecked Sendable {
    let config: HookConfig
    let daemon: TestDaemon
    let nurse: String
    /// Receivers and other peers whose state is printed when a wait times out.
    var receivers: [String: WebhookReceiver] = [:]
    /// Every secret a delivered event must never contain (tokens, codes, the webhook secret).
    private(set) var secrets: [String] = []

    /// `dataDir`: a data directory an earlier daemon left (sites the configuration names must exist at start).
    init(_ config: HookConfig, receivers: [String: WebhookReceiver] = [:], dataDir: URL? = nil) throws {
        let daemon = try TestDaemon(dataDir: dataDir, configFile: try config.write())
        let nurse = try Study.staff(daemon, "nurse-\(UUID().uuidString.prefix(6))", role: "nurse", allSites: true)
        self.config = config
        self.receivers = receivers
        self.daemon = daemon
        self.nurse = nurse
        secrets = [daemon.adminToken, nurse, config.secret, String(config.secret.dropFirst("whsec_".count))]
    }

    var admin: String { daemon.adminToken }

    /// Enrolls (POD `surgeryDaysAgo` today) and activates a patient; returns the patient token.
    @discardableResult
    func patient(_ studyId: String, surgeryDaysAgo: Int = 6, _ extra: [(String, JSONValue)] = []) throws -> String {
        let e = try daemon.request(.post, "/v1/patients", token: nurse, body: Study.profile(studyId, surgeryDaysAgo: surgeryDaysAgo, extra))
        guard e.status == 201, case .string(let code)? = e["activationCode"] else { throw TestFailure("enroll failed: \(e.text)") }
        let a = try daemon.request(.post, "/v1/activate", body: ["studyId": .string(studyId), "code": .string(code)])
        guard a.status == 200, case .string(let token)? = a["token"] else { throw TestFailure("activation failed: \(a.text)") }
        secrets += [code, code.replacingOccurrences(of: "-", with: ""), token]
        return token
    }

    /// A staff lab sodium (now); returns the lab id and the day's evaluated level.
    @discardableResult
    func lab(_ studyId: String, _ sodium: Double) throws -> (labId: Int, level: String?) {
        let r = try daemon.request(.post, "/v1/patients/\(studyId)/labs", token: nurse, body: ["sodium": .number(sodium)])
        guard r.status == 201, let id = Hooks.int(r["labId"]) else { throw TestFailure("lab: \(r.status) \(r.text)") }
        return (id, Hooks.string(Hooks.object(r["evaluation"])?["level"]))
    }

    func deleteLab(_ studyId: String, _ labId: Int) throws {
        let r = try daemon.request(.post, "/v1/patients/\(studyId)/labs/\(labId)/deletion", token: nurse,
                                   body: ["reason": "entered for the wrong patient"])
        guard r.status == 200 else { throw TestFailure("lab deletion: \(r.status) \(r.text)") }
    }

    func putDay(_ token: String, _ date: String, _ body: JSONValue) throws -> TestDaemon.Response {
        let r = try daemon.request(.put, "/v1/me/days/\(date)", token: token, body: body)
        guard r.status == 200 else { throw TestFailure("PUT day \(date): \(r.status) \(r.text)") }
        return r
    }

    /// `GET /v1/alerts` (newest first).
    func alerts() throws -> [JSONObject] {
        let r = try daemon.request(.get, "/v1/alerts", token: nurse)
        guard r.status == 200, case .array(let items) = r.json else { throw TestFailure("alerts: \(r.status) \(r.text)") }
        return items.compactMap { Hooks.object($0) }
    }

    func alerts(of studyId: String) throws -> [JSONObject] { try alerts().filter { Hooks.string($0["studyId"]) == studyId } }

    @discardableResult
    func ack(_ id: Int, note: String = "called the patient") throws -> JSONObject {
        let r = try daemon.request(.post, "/v1/alerts/\(id)/acknowledgement", token: nurse, body: ["note": .string(note)])
        guard r.status == 200, case .object(let o) = r.json else { throw TestFailure("ack \(id): \(r.status) \(r.text)") }
        return o
    }

    @discardableResult
    func resolve(_ id: Int, note: String = "sodium rechecked", sodium: Double? = nil) throws -> JSONObject {
        var body = JSONObject([("note", .string(note))])
        if let sodium { body["sodium"] = .number(sodium) }
        let r = try daemon.request(.post, "/v1/alerts/\(id)/resolution", token: nurse, body: .object(body))
        guard r.status == 200, case .object(let o) = r.json else { throw TestFailure("resolve \(id): \(r.status) \(r.text)") }
        return o
    }

    /// `GET /v1/hooks/status` by hook name.
    func hooksStatus() throws -> [String: JSONObject] {
        let r = try daemon.request(.get, "/v1/hooks/status", token: nurse)
        guard r.status == 200, case .array(let items) = r.json else { throw TestFailure("hooks status: \(r.status) \(r.text)") }
        var out: [String: JSONObject] = [:]
        for case .object(let o) in items { if let name = Hooks.string(o["name"]) { out[name] = o } }
        return out
    }

    /// The secrets found in `text` (should be none).
    func leakedSecrets(in text: String) -> [String] {
        secrets.filter { !$0.isEmpty && text.contains($0) }
    }

    /// Polls `condition` every 50 ms until it holds or `timeout` passes; then fails with the
    /// receivers' deliveries, the hook status and the daemon's log.
    func waitUntil(timeout: Double = 20, _ what: String, _ condition: () throws -> Bool) throws {
        guard poll(timeout: timeout, every: 0.05, condition) else {
            throw TestFailure("timed out after \(timeout) s waiting until \(what)\n" + diagnostics())
        }
    }

    /// Checks that `invariant` holds for `seconds`.
    func holds(for seconds: Double, _ what: String, _ invariant: () throws -> Bool) throws {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            guard try invariant() else { throw TestFailure("\(what) stopped holding\n" + diagnostics()) }
            usleep(100_000)
        }
    }

    func diagnostics() -> String {
        var text = ""
        for (name, r) in receivers.sorted(by: { $0.key < $1.key }) {
            let list = (try? r.deliveries().map(\.summary).joined(separator: "\n  ")) ?? "(unreachable)"
            text += "receiver \(name):\n  \(list)\n"
        }
        let status = (try? daemon.request(.get, "/v1/hooks/status", token: nurse).text) ?? "?"
        text += "hooks status: \(status)\n"
        text += "daemon log (tail):\n" + daemon.log.split(separator: "\n").suffix(40).joined(separator: "\n")
        return text
    }

    /// Runs the real CLI against this daemon.
    func cli(_ args: [String], token: String? = nil) throws -> CLIRunner.Result {
        try CLIRunner.run(args, server: daemon.baseURL, token: token ?? nurse)
    }
}
