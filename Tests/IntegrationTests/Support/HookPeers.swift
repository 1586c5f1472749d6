import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import HTJSON
import HTTPClient

// The independent peers of the hook tests: `scripts/webhook-receiver` (Standard Webhooks,
// verifies signatures and timestamps itself, records every attempt, fails on demand) and
// `scripts/smtp-receiver` (loopback SMTP with TLS, spools each message), a temporary
// configuration directory with `hooks`, `escalation` and a fast scheduler, and a rig that runs the
// real daemon on it.

/// A child process whose stdout and stderr lines are collected (a peer prints `ready <port>`).
final class PeerProcess: @unchecked Sendable {
    let process: Process
    let stdout: LogLines
    let stderr: LogLines

    init(_ arguments: [String]) throws {
        let stdout = LogLines(), stderr = LogLines()
        self.stdout = stdout
        self.stderr = stderr
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        for (pipe, lines) in [(out, stdout), (err, stderr)] {
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                guard !data.isEmpty else { handle.readabilityHandler = nil; return }
                lines.lines.withLock { $0.append(contentsOf: String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)) }
            }
        }
        try p.run()
        process = p
        Spawned.register(p.processIdentifier)
    }

    /// The rest of the first stdout line starting with `prefix` (waits for it).
    func line(_ prefix: String, timeout: Double = 30) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let line = stdout.lines.withLock({ $0.first { $0.hasPrefix(prefix) } }) { return String(line.dropFirst(prefix.count)) }
            if !process.isRunning || Date() > deadline {
                kill()
                throw TestFailure("\(process.arguments ?? []) printed no `\(prefix)…`: \(stdout.lines.withLock { $0 })\n"
                                  + stderr.lines.withLock { $0.joined(separator: "\n") })
            }
            usleep(10_000)
        }
    }

    /// SIGKILL: a peer keeps nothing worth saving, and a SIGTERM may stay pending in a process
    /// started from a test thread (see `REDCapEmulator.stop`).
    func kill() {
        if !ChildExit.hasExited(process) { Glibc.kill(process.processIdentifier, SIGKILL); ChildExit.wait(process) }
    }

    var log: String { stderr.lines.withLock { $0.joined(separator: "\n") } }
}

/// One attempt recorded by the webhook receiver (`GET /_deliveries`).
struct WebhookDelivery {
    let seq: Int
    let path: String
    /// The `webhook-id`, `webhook-timestamp` and `webhook-signature` headers as received.
    let id: String?
    let timestamp: String?
    let signature: String?
    let type: String?
    let body: String
    let json: JSONValue
    /// The receiver's own verification (signature over id.timestamp.body, timestamp within 5 min).
    let verified: Bool
    let error: String?
    let answered: Int
    let receivedAt: Double

    var event: JSONObject? { if case .object(let o) = json { o } else { nil } }
    var data: JSONObject? { if case .object(let d)? = event?["data"] { d } else { nil } }
    var alertId: Int? { Hooks.int(data?["alertId"]) }
    var tier: Int? { Hooks.int(data?["tier"]) }
    var level: String? { Hooks.string(data?["level"]) }
    var studyId: String? { Hooks.string(data?["studyId"]) }
    var summary: String { "#\(seq) \(path) \(type ?? "?") alert=\(alertId.map(String.init) ?? "-") tier=\(tier.map(String.init) ?? "-") → \(answered)" }
}

enum Hooks {
    static func int(_ v: JSONValue?) -> Int? { if case .number(let n)? = v { Int(n) } else { nil } }
    static func string(_ v: JSONValue?) -> String? { if case .string(let s)? = v { s } else { nil } }
    static func bool(_ v: JSONValue?) -> Bool? { if case .bool(let b)? = v { b } else { nil } }
    static func object(_ v: JSONValue?) -> JSONObject? { if case .object(let o)? = v { o } else { nil } }

    /// `whsec_` + base64 of 32 random bytes.
    static func makeSecret() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255) }
        return "whsec_" + Data(bytes).base64EncodedString()
    }

    /// Writes `text` to `path` with `mode` (secret files must be owner-only).
    static func writeFile(_ path: String, _ text: String, mode: mode_t = 0o600) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { throw TestFailure("cannot write \(path)") }
        guard chmod(path, mode) == 0 else { throw TestFailure("chmod \(path)") }
    }

    /// The Berlin wall clock now: (minute of the day, seconds into the minute).
    static func berlinNow() -> (minute: Int, second: Int) {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = Study.zone
        let c = cal.dateComponents([.hour, .minute, .second], from: Date())
        return (c.hour! * 60 + c.minute!, c.second!)
    }

    static func hhmm(_ minuteOfDay: Int) -> String {
        let m = ((minuteOfDay % 1440) + 1440) % 1440
        return String(format: "%02d:%02d", m / 60, m % 60)
    }
}

/// `scripts/webhook-receiver` on a loopback port (plain HTTP, which the daemon allows to loopback
/// only). It can be constructed on a reserved port without starting, to play an endpoint that is
/// down, and started later on that port.
final class WebhookReceiver: @unchecked Sendable {
    static let script = Repo.root.appendingPathComponent("scripts/webhook-receiver").path

    let secret: String
    private let portBox = Mutex(0)
    var port: Int { portBox.withLock { $0 } }
    private let peerBox = Mutex<PeerProcess?>(nil)
    let client: HTTPClient

    init(secret: String, port: Int = 0, start: Bool = true) throws {
        CurlRuntime.initialize()
        self.secret = secret
        portBox.withLock { $0 = port }
        client = HTTPClient(configuration: HTTPClientConfiguration(timeout: .seconds(15)))
        if start { try self.start() }
    }

    deinit { stop() }

    func start() throws {
        let peer = try PeerProcess(["python3", Self.script, "--port", String(port), "--secret", secret])
        guard let ready = Int(try peer.line("ready ")) else { throw TestFailure("webhook-receiver: bad ready line") }
        portBox.withLock { $0 = ready }
        peerBox.withLock { $0 = peer }
    }

    func stop() { peerBox.withLock { $0 }?.kill() }

    var log: String { peerBox.withLock { $0 }?.log ?? "" }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// `POST /_control` (status, count, retryAfter, delaySeconds, reset).
    @discardableResult
    func control(_ body: JSONValue) throws -> JSONValue {
        let r = try client.send(.json(method: .post, url: url("/_control"), body: JSONSerializer.string(body)))
        guard r.status == 200 else { throw TestFailure("webhook-receiver control: \(r.status) \(r.bodyText ?? "")") }
        return try JSONParser.parse(r.body)
    }

    /// Every attempt so far, in arrival order.
    func deliveries() throws -> [WebhookDelivery] {
        let r = try client.send(HTTPClientRequest(url: url("/_deliveries")))
        guard r.status == 200, case .array(let items) = try JSONParser.parse(r.body) else {
            throw TestFailure("webhook-receiver /_deliveries: \(r.status)")
        }
        return items.compactMap { item in
            guard case .object(let o) = item else { return nil }
            let bodyText = Hooks.string(o["body"]) ?? ""
            return WebhookDelivery(seq: Hooks.int(o["seq"]) ?? 0, path: Hooks.string(o["path"]) ?? "", id: Hooks.string(o["id"]),
                                   timestamp: Hooks.string(o["timestamp"]), signature: Hooks.string(o["signature"]),
                                   type: Hooks.string(o["type"]), body: bodyText,
                                   json: (try? JSONParser.parse(bodyText)) ?? .null,
                                   verified: Hooks.bool(o["verified"]) ?? false, error: Hooks.string(o["error"]),
                                   answered: Hooks.int(o["answered"]) ?? 0,
                                   receivedAt: { if case .number(let n)? = o["receivedAt"] { n } else { 0 } }())
        }
    }

    /// The attempts at one path (one hook), optionally of one event type.
    func deliveries(_ path: String, type: String? = nil) throws -> [WebhookDelivery] {
        try deliveries().filter { $0.path == path && (type == nil || $0.type == type) }
    }
}

/// `scripts/smtp-receiver` with a throwaway CA (`--make-cert`), implicit TLS or STARTTLS, and
/// AUTH required; accepted messages are read back from its spool.
final class SMTPReceiver: @unchecked Sendable {
    static let script = Repo.root.appendingPathComponent("scripts/smtp-receiver").path

    let directory: URL
    let spool: URL
    let caFile: String
    let port: Int
    let mode: String
    let user: String
    let password: String
    private let peer: PeerProcess

    /// - Parameter mode: `implicit` (smtps://) or `starttls` (smtp:// with STARTTLS required).
    init(mode: String = "implicit", user: String = "ward-mailer", password: String = "pw-\(UUID().uuidString.prefix(12))") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(UUID().uuidString)")
        spool = directory.appendingPathComponent("spool")
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
        self.mode = mode
        self.user = user
        self.password = password
        peer = try PeerProcess(["python3", Self.script, "--make-cert", directory.appendingPathComponent("tls").path, "--port", "0",
                                "--tls", mode, "--spool", spool.path, "--user", user, "--password", password])
        caFile = try peer.line("ca ")
        guard let ready = Int(try peer.line("ready ")) else { throw TestFailure("smtp-receiver: bad ready line") }
        port = ready
    }

    deinit {
        peer.kill()
        try? FileManager.default.removeItem(at: directory)
    }

    var url: String { (mode == "implicit" ? "smtps" : "smtp") + "://127.0.0.1:\(port)" }
    var log: String { peer.log }

    /// The spooled summaries (`<n>.json`, written last and atomically), by sequence number.
    func messages() throws -> [JSONObject] {
        let names = try FileManager.default.contentsOfDirectory(atPath: spool.path)
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
            .sorted { (Int($0.dropLast(5)) ?? 0) < (Int($1.dropLast(5)) ?? 0) }
        return try names.compactMap { name in
            let data = try Data(contentsOf: spool.appendingPathComponent(name))
            if case .object(let o) = try JSONParser.parse([UInt8](data)) { return o }
            return nil
        }
    }
}

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

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hookcfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        secret = Hooks.makeSecret()
        secretFile = directory.appendingPathComponent("webhook-secret")
        try Hooks.writeFile(secretFile.path, secret + "\n")
    }

    mutating func webhook(_ name: String, url: String, events: [String] = []) {
        hooks.append(["name": .string(name), "type": "webhook", "url": .string(url), "secretFile": "webhook-secret",
                      "events": .array(events.map { .string($0) })])
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
        let config: JSONValue = [
            "listen": "127.0.0.1:8750", "defaultTimeZone": "Europe/Berlin", "studyTimeZone": "Europe/Berlin",
            "rules": ["riskModel": "risk-model.json", "thresholds": "thresholds.json",
                      "reminders": "reminders.json", "instructions": "instructions.json"],
            "hooks": .array(hooks),
            "escalation": ["red": ladder(red), "yellow": ladder(yellow)],
            "scheduler": ["intervalSeconds": .number(schedulerInterval)],
        ]
        let file = directory.appendingPathComponent("hyponatrack.json")
        try JSONSerializer.string(config, pretty: true).write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}

/// The real daemon on a `HookConfig`, a nurse, and the steps and waits the hook tests share.
final class HookRig: @unchecked Sendable {
    let config: HookConfig
    let daemon: TestDaemon
    let nurse: String
    /// Receivers and other peers whose state is printed when a wait times out.
    var receivers: [String: WebhookReceiver] = [:]
    /// Every secret a delivered event must never contain (tokens, codes, the webhook secret).
    private(set) var secrets: [String] = []

    init(_ config: HookConfig, receivers: [String: WebhookReceiver] = [:]) throws {
        let daemon = try TestDaemon(configFile: try config.write())
        let nurse = try Study.staff(daemon, "nurse-\(UUID().uuidString.prefix(6))", role: "nurse")
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
