import Foundation
import Synchronization
import HTJSON
import HTTPClient

/// The repository and its built binaries (scripts/test builds them before running tests).
enum Repo {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static var binDir: URL {
        if let dir = ProcessInfo.processInfo.environment["HYPONATRACK_BIN_DIR"] { return URL(fileURLWithPath: dir) }
        return root.appendingPathComponent(".build/debug")
    }
    static var daemon: String { binDir.appendingPathComponent("hyponatrackd").path }
    static var cli: String { binDir.appendingPathComponent("hyponatrack").path }
    static let config = root.appendingPathComponent("config")
}

/// A real `hyponatrackd` process on an ephemeral loopback port with its own data directory.
final class TestDaemon: @unchecked Sendable {
    let dataDir: URL
    let configFile: URL?
    /// Added to the daemon's environment (e.g. `NOTIFY_SOCKET`, `WATCHDOG_USEC`).
    let environment: [String: String]
    /// Sets `JOURNAL_STREAM` to the device and inode of the daemon's stderr pipe, as systemd
    /// does when stderr is the journal.
    let stderrIsJournal: Bool
    private let portBox = Mutex(0)
    var port: Int { portBox.withLock { $0 } }
    private var process: Process?
    private let logLines = LogLines()
    let client: HTTPClient

    init(dataDir: URL? = nil, configFile: URL? = nil, environment: [String: String] = [:], stderrIsJournal: Bool = false) throws {
        CurlRuntime.initialize()
        self.dataDir = dataDir ?? FileManager.default.temporaryDirectory.appendingPathComponent("htd-\(UUID().uuidString)")
        self.configFile = configFile
        self.environment = environment
        self.stderrIsJournal = stderrIsJournal
        client = HTTPClient(configuration: HTTPClientConfiguration(timeout: .seconds(30)))
        try Self.keepClearOfMidnight()
        try start()
    }

    /// The tests reckon dates on the Berlin wall clock (`Study.date`) as the daemon does, so a
    /// test that straddled Berlin's midnight would enrol on one day and read on the next (four
    /// failed so in one full run at 23:00 UTC). A daemon started in the last two minutes of the
    /// day starts just after midnight instead.
    static func keepClearOfMidnight() throws {
        guard Hooks.berlinNow().minute >= 1438 else { return }
        try waitUntil(timeout: 150) { Hooks.berlinNow().minute < 1438 }
    }

    deinit {
        if let p = process, !ChildExit.hasExited(p) { p.terminate(); ChildExit.wait(p) }
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var log: String { logLines.lines.withLock { $0.joined(separator: "\n") } }
    var pid: Int32 { process?.processIdentifier ?? 0 }
    var adminToken: String {
        (try? String(contentsOf: dataDir.appendingPathComponent("admin.token"), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// Starts (or restarts) the daemon and waits until `/healthz` answers 200.
    func start() throws {
        let port = try Self.freePort()
        portBox.withLock { $0 = port }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Repo.daemon)
        var args = ["--listen", "127.0.0.1:\(port)", "--data-dir", dataDir.path]
        if let configFile { args += ["--config", configFile.path] }
        p.arguments = args
        let pipe = Pipe()
        p.standardError = pipe
        // What systemd sets is the test's to give, never inherited from whatever runs the tests.
        var environment = ProcessInfo.processInfo.environment.filter { !Self.systemdVariables.contains($0.key) }
            .merging(self.environment) { $1 }
        if stderrIsJournal {
            var info = stat()
            guard fstat(pipe.fileHandleForWriting.fileDescriptor, &info) == 0 else { throw TestFailure("fstat of the stderr pipe") }
            environment["JOURNAL_STREAM"] = "\(info.st_dev):\(info.st_ino)"
        }
        p.environment = environment
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        try logLines.follow(pipe)
        process = p
        Spawned.register(p.processIdentifier)
        let ready = poll(timeout: 20) {
            guard !ChildExit.hasExited(p) else { return true }
            return (try? client.send(HTTPClientRequest(url: baseURL + "/healthz", timeout: .seconds(2))))?.status == 200
        }
        if let status = ChildExit.status(of: p) {
            // Its last words may still be in the pipe: read them to the end before quoting the log.
            _ = poll(timeout: 5) { logLines.ended.withLock { $0 } }
            throw TestFailure("hyponatrackd exited at start (status \(status)):\n\(log)")
        }
        if !ready { throw TestFailure("hyponatrackd did not become ready:\n\(log)") }
    }

    static let systemdVariables: Set = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM"]

    /// SIGTERM and wait: the graceful stop.
    func stop() {
        guard let p = process, !ChildExit.hasExited(p) else { return }
        p.terminate()
        ChildExit.wait(p)
    }

    /// SIGKILL: a crash at an arbitrary moment.
    func kill9() {
        guard let p = process, !ChildExit.hasExited(p) else { return }
        kill(p.processIdentifier, SIGKILL)
        ChildExit.wait(p)
    }

    func signal(_ s: Int32) { if let p = process { kill(p.processIdentifier, s) } }

    var exitStatus: Int32? { process.flatMap(ChildExit.status(of:)) }

    struct Response {
        let status: Int
        let json: JSONValue
        let headers: HTTPHeaders
        let text: String
        /// The body byte for byte (a PDF is not text).
        var bytes: [UInt8] = []

        subscript(key: String) -> JSONValue? { if case .object(let o) = json { return o[key] } else { return nil } }
        var errorField: String? {
            if case .object(let e)? = self["error"], case .string(let f)? = e["field"] { return f }
            return nil
        }
        var errorCode: String? {
            if case .object(let e)? = self["error"], case .string(let c)? = e["code"] { return c }
            return nil
        }
    }

    /// One request; `body` JSON is serialized, `raw` is sent as is.
    @discardableResult
    func request(_ method: HTTPClientRequest.Method, _ path: String, token: String? = nil, body: JSONValue? = nil,
                 raw: [UInt8]? = nil, contentType: String? = "application/json", headers extra: [(String, String)] = []) throws -> Response {
        var headers = HTTPHeaders()
        if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
        let bytes = raw ?? body.map { JSONSerializer.bytes($0) }
        if bytes != nil, let contentType { headers.add(name: "Content-Type", value: contentType) }
        for (n, v) in extra { headers.add(name: n, value: v) }
        let r = try client.send(HTTPClientRequest(method: method, url: baseURL + path, headers: headers, body: bytes))
        return Response(status: r.status, json: (try? JSONParser.parse(r.body)) ?? .null, headers: r.headers,
                        text: r.bodyText ?? "", bytes: r.body)
    }

    static func freePort() throws -> Int {
        let (fd, port) = try loopbackSocket(listening: false)
        close(fd)
        return port
    }

    /// A TCP socket bound to a free port on 127.0.0.1 (listening, if asked) and its port.
    static func loopbackSocket(listening: Bool) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 && (!listening || listen(fd, 16) == 0)
            }
        }
        guard ok else { close(fd); throw TestFailure(listening ? "cannot listen" : "no free port") }
        return (fd, Int(UInt16(bigEndian: addr.sin_port)))
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// A child's output lines, appended from the pipe's reader thread.
final class LogLines: Sendable {
    let lines = Mutex<[String]>([])
    /// Set when the reader saw the end of the stream (the process closed it: exited).
    let ended = Mutex(false)

    /// Reads `pipe` to its end on a thread of its own, from a duplicate of its descriptor, so
    /// nothing else can close it under the reader. (With a `readabilityHandler`, a restart
    /// dropped the old pipe while its handler still ran, and `availableData` on the closed
    /// descriptor is a fatal error that took the whole test process down on CI.) Call after
    /// the child was started. Partial lines wait for their newline.
    func follow(_ pipe: Pipe) throws {
        ended.withLock { $0 = false }
        let fd = dup(pipe.fileHandleForReading.fileDescriptor)
        guard fd >= 0 else { throw TestFailure("dup of a child's output pipe") }
        try? pipe.fileHandleForReading.close()
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            var pending: [UInt8] = []
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                pending.append(contentsOf: buffer[0..<n])
                guard let last = pending.lastIndex(of: UInt8(ascii: "\n")) else { continue }
                let text = String(decoding: pending[...last], as: UTF8.self)
                pending.removeSubrange(...last)
                lines.withLock { $0.append(contentsOf: text.split(separator: "\n").map(String.init)) }
            }
            if !pending.isEmpty { lines.withLock { $0.append(String(decoding: pending, as: UTF8.self)) } }
            close(fd)
            ended.withLock { $0 = true }
        }
    }
}

/// Every daemon the tests started, killed when the test process exits (a suite-wide fixture is
/// never deinitialised, and an orphaned daemon would outlive the test run).
enum Spawned {
    static let pids = Mutex<Set<Int32>>([])
    static let installed = Mutex(false)

    static func register(_ pid: Int32) {
        pids.withLock { _ = $0.insert(pid) }
        let first = installed.withLock { done -> Bool in defer { done = true }; return !done }
        if first { atexit { Spawned.killAll() } }
    }

    static func killAll() {
        for pid in pids.withLock({ $0 }) { kill(pid, SIGKILL) }
    }
}
