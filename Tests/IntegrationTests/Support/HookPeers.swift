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
        try p.run()
        try stdout.follow(out)
        try stderr.follow(err)
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
