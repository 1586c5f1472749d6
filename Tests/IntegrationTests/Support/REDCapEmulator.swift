import Foundation
import Synchronization
import HTJSON
import HTTPClient

/// `scripts/redcap-emulator` as a test peer: started with `--make-cert` in its own temporary
/// directory (a throwaway CA and a server certificate for 127.0.0.1), serving HTTPS on an
/// ephemeral port; its control side (`/_control`, `/_records`, `/_requests`) is reached over the
/// same TLS with the emulator's CA. Stopped (SIGTERM) when released.
final class REDCapEmulator: @unchecked Sendable {
    static let script = Repo.root.appendingPathComponent("scripts/redcap-emulator").path
    static let dictionary = Repo.root.appendingPathComponent("instruments/hyponatrack_data_dictionary.csv")

    let directory: URL
    let token: String
    let caFile: String
    let port: Int
    let client: HTTPClient
    private let process: Process
    private let stderrLines = LogLines()

    var apiURL: String { "https://127.0.0.1:\(port)/api/" }
    var baseURL: String { "https://127.0.0.1:\(port)" }
    var log: String { stderrLines.lines.withLock { $0.joined(separator: "\n") } }

    /// - Parameters:
    ///   - dictionary: the data dictionary CSV to serve (default: the shipped one).
    ///   - rateLimit: the per-IP ban threshold per minute (0: off, the default here; REDCap's is 600).
    init(dictionary: URL = REDCapEmulator.dictionary, token: String = REDCapEmulator.randomToken(), rateLimit: Int = 0,
         extraArguments: [String] = []) throws {
        CurlRuntime.initialize()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rcemu-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.token = token
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", Self.launcher, Self.script, "--make-cert", directory.appendingPathComponent("tls").path, "--port", "0",
                       "--dictionary", dictionary.path, "--token", token, "--rate-limit", String(rateLimit)] + extraArguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let stdoutLines = LogLines()
        try p.run()
        try stdoutLines.follow(out)
        try stderrLines.follow(err)
        process = p
        Spawned.register(p.processIdentifier)
        var ca: String?, port: Int?
        let deadline = Date().addingTimeInterval(30)
        while port == nil {
            let lines = stdoutLines.lines.withLock { $0 }
            for line in lines {
                if line.hasPrefix("ca ") { ca = String(line.dropFirst(3)) }
                if line.hasPrefix("ready ") { port = Int(line.dropFirst(6)) }
            }
            if port != nil { break }
            if !p.isRunning || Date() > deadline {
                if p.isRunning { p.terminate() }
                throw TestFailure("redcap-emulator did not become ready: \(lines)\n\(stderrLines.lines.withLock { $0.joined(separator: "\n") })")
            }
            usleep(10_000)
        }
        guard let ca, let port else { throw TestFailure("redcap-emulator printed no CA path") }
        caFile = ca
        self.port = port
        client = HTTPClient(configuration: HTTPClientConfiguration(caFile: ca, timeout: .seconds(30)))
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// SIGKILL: the emulator keeps nothing worth saving, and a SIGTERM could stay pending forever
    /// (a process started from a test thread inherits that thread's blocked-signal mask, and
    /// Python only handles signals that reach it).
    func stop() {
        if !ChildExit.hasExited(process) { kill(process.processIdentifier, SIGKILL); ChildExit.wait(process) }
    }

    /// Runs the emulator script as `__main__` with every signal unblocked (a process started
    /// from a test thread inherits that thread's blocked-signal mask) and exits when the test
    /// process is gone (its parent changed), so no emulator outlives a test run however it ends.
    static let launcher = """
        import os, runpy, signal, sys, threading, time
        parent = os.getppid()
        def watch():
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        sys.argv = sys.argv[1:]
        runpy.run_path(sys.argv[0], run_name="__main__")
        """

    static func randomToken() -> String {
        String((0..<32).map { _ in "0123456789ABCDEF".randomElement()! })
    }

    // MARK: control side

    private func json(_ request: HTTPClientRequest) throws -> JSONValue {
        let r = try client.send(request)
        guard r.status == 200 else { throw TestFailure("emulator \(request.url): \(r.status) \(r.bodyText ?? "")") }
        return try JSONParser.parse(r.body)
    }

    /// `POST /_control` with the given switches; returns the state.
    @discardableResult
    func control(_ body: JSONValue) throws -> JSONValue {
        try json(.json(method: .post, url: baseURL + "/_control", body: JSONSerializer.string(body)))
    }

    /// `GET /_control`.
    func state() throws -> JSONValue { try json(HTTPClientRequest(url: baseURL + "/_control")) }

    /// A counter of `GET /_control` (`apiRequests`, `rowsImported`, `rejected`, `maxApiRequestsPerMinute`, …).
    func counter(_ name: String) throws -> Int {
        guard case .object(let s) = try state(), case .object(let c)? = s["counters"], case .number(let n)? = c[name] else {
            throw TestFailure("emulator state has no counter \(name)")
        }
        return Int(n)
    }

    /// How often a fault mode answered (`counters.modes[mode]`).
    func modeCount(_ mode: String) throws -> Int {
        guard case .object(let s) = try state(), case .object(let c)? = s["counters"], case .object(let m)? = c["modes"] else { return 0 }
        if case .number(let n)? = m[mode] { return Int(n) }
        return 0
    }

    /// `GET /_records`: record name → stored values (see `EmulatedRecord`).
    func records() throws -> [String: EmulatedRecord] {
        guard case .object(let o) = try json(HTTPClientRequest(url: baseURL + "/_records")) else { throw TestFailure("/_records") }
        var out: [String: EmulatedRecord] = [:]
        for (name, value) in o.members {
            guard case .object(let r) = value else { continue }
            var record = EmulatedRecord()
            if case .object(let b)? = r["baseline"] { record.baseline = Self.strings(b) }
            if case .object(let i)? = r["instances"] { record.instances = Self.instances(i) }
            if case .object(let forms)? = r["repeating"] {
                for (form, v) in forms.members { if case .object(let i) = v { record.repeating[form] = Self.instances(i) } }
            }
            if case .string(let dag)? = r["dag"] { record.dag = dag }
            out[name] = record
        }
        return out
    }

    /// Imports rows through the API as another REDCap user or tool would (`overwriteBehavior=normal`):
    /// another instrument's data, or a hand edit.
    func importRows(_ rows: JSONValue) throws {
        let r = try client.send(.formURLEncoded(url: apiURL, fields: [
            ("token", token), ("content", "record"), ("format", "json"), ("type", "flat"), ("overwriteBehavior", "normal"),
            ("returnFormat", "json"), ("data", JSONSerializer.string(rows)),
        ]))
        guard r.status == 200 else { throw TestFailure("import into the emulator: \(r.status) \(r.bodyText ?? "")") }
    }

    /// `GET /_requests`: one object per API request (never the token).
    func requests() throws -> [JSONObject] {
        guard case .array(let a) = try json(HTTPClientRequest(url: baseURL + "/_requests")) else { throw TestFailure("/_requests") }
        return a.compactMap { if case .object(let o) = $0 { o } else { nil } }
    }

    private static func instances(_ o: JSONObject) -> [Int: [String: String]] {
        var out: [Int: [String: String]] = [:]
        for (n, v) in o.members { if case .object(let row) = v, let k = Int(n) { out[k] = strings(row) } }
        return out
    }

    private static func strings(_ o: JSONObject) -> [String: String] {
        var out: [String: String] = [:]
        for (k, v) in o.members { if case .string(let s) = v { out[k] = s } }
        return out
    }

    /// A copy of the shipped dictionary with `transform` applied to each line (header included)
    /// and `appending` lines added at the end, written into this test's own temporary directory.
    static func modifiedDictionary(appending: [String] = [], _ transform: (String) -> String? = { $0 }) throws -> URL {
        let text = try String(contentsOf: dictionary, encoding: .utf8).trimmingCharacters(in: .newlines)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { transform(String($0)) } + appending
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rcdict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("dictionary.csv")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}

/// What the emulator stored for one record: non-blank values as sent (checkbox columns as
/// `field___code`, a sent "0" kept), `<form>_complete` included. `instances` are
/// `daily_monitoring`'s; `repeating` holds every repeating instrument's, by instrument.
struct EmulatedRecord: Equatable {
    var baseline: [String: String] = [:]
    var instances: [Int: [String: String]] = [:]
    var repeating: [String: [Int: [String: String]]] = [:]
    /// The Data Access Group the record is assigned to (nil: none).
    var dag: String?

    /// The `alert_log` instances.
    var alertLog: [Int: [String: String]] { repeating["alert_log"] ?? [:] }
}
