import Foundation
import Synchronization
import HTJSON
import HTTPClient

/// A temporary configuration directory for a daemon that syncs to a REDCap emulator: the rule
/// files copied from `config/`, a `hyponatrack.json` with a `redcap` block
/// (`https://127.0.0.1:<port>/api/`, the emulator's CA, a token file of mode 0600) and options
/// for the tests (batch size, rate cap, a wrong URL, a token file with other permissions…).
struct SyncConfig {
    struct Options {
        var batchSize = 100
        /// Lifted for speed (600 is the most the configuration accepts); the rate-cap test lowers it.
        var maxRequestsPerMinute = 600
        /// Replaces the emulator's URL (e.g. an `http://` one the daemon must refuse).
        var url: String?
        /// Replaces the emulator's CA file (nil: the emulator's).
        var caFile: String?
        /// The token file's content (default: the emulator's token and a newline, which the daemon trims).
        var tokenText: String?
        var tokenMode: mode_t = 0o600
        var events: (baseline: String, daily: String)?
        var unhealthyAfterMinutes: Double?
        /// The emulator's slow answers here take at most a few seconds (the daemon's default: 60).
        var settleSeconds: Double = 3
    }

    let directory: URL
    let file: URL
    let tokenFile: URL

    init(url: String, token: String, caFile: String?, _ options: Options = Options()) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("synccfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["risk-model.json", "thresholds.json", "reminders.json", "instructions.json"] {
            try FileManager.default.copyItem(at: Repo.config.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        tokenFile = directory.appendingPathComponent("redcap-token")
        let text = options.tokenText ?? token + "\n"
        guard FileManager.default.createFile(atPath: tokenFile.path, contents: Data(text.utf8)) else {
            throw TestFailure("cannot write \(tokenFile.path)")
        }
        guard chmod(tokenFile.path, options.tokenMode) == 0 else { throw TestFailure("chmod \(tokenFile.path)") }
        var redcap: [(String, JSONValue)] = [("url", .string(options.url ?? url)), ("tokenFile", "redcap-token"),
                                             ("batchSize", .int(options.batchSize)),
                                             ("maxRequestsPerMinute", .int(options.maxRequestsPerMinute))]
        if let ca = options.caFile ?? caFile { redcap.append(("caFile", .string(ca))) }
        if let e = options.events { redcap.append(("events", ["baseline": .string(e.baseline), "daily": .string(e.daily)])) }
        if let u = options.unhealthyAfterMinutes { redcap.append(("unhealthyAfterMinutes", .number(u))) }
        redcap.append(("settleSeconds", .number(options.settleSeconds)))
        let config: JSONValue = [
            "listen": "127.0.0.1:8750", "defaultTimeZone": "Europe/Berlin", "studyTimeZone": "Europe/Berlin",
            "rules": ["riskModel": "risk-model.json", "thresholds": "thresholds.json",
                      "reminders": "reminders.json", "instructions": "instructions.json"],
            "redcap": .object(JSONObject(redcap)),
        ]
        file = directory.appendingPathComponent("hyponatrack.json")
        try JSONSerializer.string(config, pretty: true).write(to: file, atomically: true, encoding: .utf8)
    }

    /// A configuration pointing at `emulator`.
    init(_ emulator: REDCapEmulator, _ options: Options = Options()) throws {
        try self.init(url: emulator.apiURL, token: emulator.token, caFile: emulator.caFile, options)
    }

    /// Runs the daemon binary on this configuration expecting it to refuse to start; returns its
    /// exit status and everything it wrote to stderr (read to the end, so nothing is lost).
    func refusedStart(timeout: Double = 20) throws -> (status: Int32, log: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Repo.daemon)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("htd-refused-\(UUID().uuidString)")
        p.arguments = ["--config", file.path, "--listen", "127.0.0.1:\(try TestDaemon.freePort())", "--data-dir", data.path]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        if !poll(timeout: timeout, { ChildExit.hasExited(p) }) {
            p.terminate()
            ChildExit.wait(p)
            throw TestFailure("the daemon started although it should have refused")
        }
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try? FileManager.default.removeItem(at: data)
        return (ChildExit.wait(p), text)
    }
}

/// One daemon syncing to one emulator, with the helpers the sync tests share.
final class SyncRig: @unchecked Sendable {
    let emulator: REDCapEmulator
    let config: SyncConfig
    let daemon: TestDaemon

    init(emulator: REDCapEmulator? = nil, _ options: SyncConfig.Options = SyncConfig.Options(),
         environment: [String: String] = [:]) throws {
        let emulator = try emulator ?? REDCapEmulator()
        self.emulator = emulator
        config = try SyncConfig(emulator, options)
        daemon = try TestDaemon(configFile: config.file, environment: environment)
    }

    deinit { try? FileManager.default.removeItem(at: config.directory) }

    var admin: String { daemon.adminToken }

    /// `GET /v1/sync/status`.
    func status() throws -> JSONObject {
        let r = try daemon.request(.get, "/v1/sync/status", token: admin)
        guard r.status == 200, case .object(let o) = r.json else { throw TestFailure("sync status: \(r.status) \(r.text)") }
        return o
    }

    func reconcile() throws -> JSONObject {
        let r = try daemon.request(.get, "/v1/sync/reconcile", token: admin)
        guard r.status == 200, case .object(let o) = r.json else { throw TestFailure("sync reconcile: \(r.status) \(r.text)") }
        return o
    }

    /// `GET /v1/alerts`, oldest first (optionally one patient's): a patient's n-th alert is
    /// their REDCap `alert_log` instance n.
    func alerts(_ studyId: String? = nil) throws -> [JSONObject] {
        let r = try daemon.request(.get, "/v1/alerts", token: admin)
        guard r.status == 200, case .array(let all) = r.json else { throw TestFailure("alerts: \(r.status) \(r.text)") }
        return all.compactMap { if case .object(let o) = $0 { o } else { nil } }
            .filter { studyId == nil || $0["studyId"] == .string(studyId!) }
            .sorted { (Self.number($0["id"]) ?? 0) < (Self.number($1["id"]) ?? 0) }
    }

    static func number(_ v: JSONValue?) -> Double? { if case .number(let n)? = v { n } else { nil } }

    @discardableResult
    func post(_ path: String, _ body: JSONValue = [:]) throws -> TestDaemon.Response {
        try daemon.request(.post, path, token: admin, body: body)
    }

    /// Waits until the outbox is empty: every queued row confirmed by REDCap (none dead, not halted).
    func waitUntilDrained(timeout: Double = 20, _ what: String = "the outbox drains") throws {
        try waitUntil(timeout: timeout, what) {
            let s = try status()
            return s["pending"] == 0 && s["halted"] == false
        }
    }

    /// Polls `condition` every 50 ms until it holds or `timeout` passes (then fails with the
    /// sync status, the emulator's state and the daemon's log).
    func waitUntil(timeout: Double = 20, _ what: String, _ condition: () throws -> Bool) throws {
        guard poll(timeout: timeout, every: 0.05, condition) else {
            let s = (try? status()).map { JSONSerializer.string(.object($0)) } ?? "?"
            let e = (try? emulator.state()).map { JSONSerializer.string($0) } ?? "?"
            throw TestFailure("timed out after \(timeout) s waiting until \(what)\nsync status: \(s)\nemulator: \(e)\n"
                              + "daemon log (tail):\n\(daemon.log.split(separator: "\n").suffix(30).joined(separator: "\n"))")
        }
    }

    /// Runs `hyponatrack sync …` against this daemon as the admin.
    func cli(_ args: [String]) throws -> CLIRunner.Result {
        try CLIRunner.run(["sync"] + args, server: daemon.baseURL, token: admin)
    }
}

/// A listener that accepts TCP connections, reads the client's TLS hello and resets the
/// connection: what a client sees from a REDCap front end that fails during the handshake (a TLS
/// connect failure, `CURLE_SSL_CONNECT_ERROR`, not a certificate problem).
final class ResettingListener: @unchecked Sendable {
    let port: Int
    private let fd: Int32
    private let stopped = StopFlag()
    private let thread: Thread

    init() throws {
        let (fd, port) = try TestDaemon.loopbackSocket(listening: true)
        self.fd = fd
        self.port = port
        let stopped = stopped
        // The accept thread owns the socket and closes it once it leaves the loop; `stop()`
        // only shuts it down (which wakes `accept`).
        thread = Thread {
            defer { close(fd) }
            while !stopped.value.withLock({ $0 }) {
                let c = accept(fd, nil, nil)
                if c < 0 { if stopped.value.withLock({ $0 }) { break } else { continue } }
                var hello = [UInt8](repeating: 0, count: 4096)      // the ClientHello, unanswered
                _ = recv(c, &hello, hello.count, 0)
                var lg = linger(l_onoff: 1, l_linger: 0)      // RST, not FIN
                setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, socklen_t(MemoryLayout<linger>.size))
                close(c)
            }
        }
        thread.start()
    }

    /// Stops accepting; safe to call again (`deinit` does). Only the first call touches the
    /// socket: the descriptor number may belong to someone else once the thread closed it. (It
    /// used to close here and again in `deinit`: the second close hit whatever descriptor a
    /// concurrently running test had just opened under that number, e.g. a libcurl socket,
    /// which then failed with "select/poll returned error", CURLcode 55.)
    func stop() {
        let first = stopped.value.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        if first { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    deinit { stop() }
}

final class StopFlag: Sendable {
    let value = Mutex(false)
}
