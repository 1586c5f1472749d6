import Foundation
import Synchronization

/// The real `hyponatrackd`, started as a child process on a free loopback port with its own data
/// directory; its log (stderr and stdout) goes to a file so a full pipe can never stall it.
final class DaemonProcess {
    let port: UInt16
    let dataDirectory: String
    let logPath: String
    private let process: Process

    /// Seconds from spawning to the first `GET /healthz` answered 200 (polled every 2 ms).
    let startToReadySeconds: Double

    /// Spawns the daemon and waits until it answers `/healthz` (at most 30 s).
    init(executable: String, configFile: String, dataDirectory: String, logPath: String) throws {
        port = try Loopback.freePort()
        self.dataDirectory = dataDirectory
        self.logPath = logPath
        guard FileManager.default.createFile(atPath: logPath, contents: nil),
              let log = FileHandle(forWritingAtPath: logPath) else { throw BenchError("cannot create \(logPath)") }
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--config", configFile, "--listen", "127.0.0.1:\(port)", "--data-dir", dataDirectory]
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        let spawned = Monotonic.now()
        do { try process.run() } catch { throw BenchError("cannot start \(executable): \(error)") }
        let deadline = Monotonic.adding(30, to: spawned)
        while true {
            if let connection = try? HTTPConnection(port: port, timeoutSeconds: 5),
               let reply = try? connection.request("GET", "/healthz"), reply.status == 200 {
                break
            }
            let now = Monotonic.now()
            guard process.isRunning, now < deadline else {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                throw BenchError("the daemon did not become ready (\(process.isRunning ? "timeout" : "it exited")); log:\n"
                                 + Self.tail(of: logPath))
            }
            Monotonic.sleep(0.002)
        }
        startToReadySeconds = Monotonic.seconds(from: spawned, to: Monotonic.now())
    }

    var pid: Int32 { process.processIdentifier }

    /// The bootstrap admin bearer token the daemon wrote for its new database.
    func adminToken() throws -> String {
        let path = dataDirectory + "/admin.token"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw BenchError("cannot read \(path)") }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The daemon's SQLite file (see `Database` in HyponaTrackServer).
    var databasePath: String { dataDirectory + "/hyponatrack.sqlite" }

    /// Throws, with the end of the log, if the daemon is no longer running.
    func checkRunning() throws {
        guard !process.isRunning else { return }
        throw BenchError("the daemon exited (status \(process.terminationStatus), \(process.terminationReason == .uncaughtSignal ? "signal" : "exit")); "
                         + "log \(logPath):\n" + Self.tail(of: logPath))
    }

    /// Graceful stop: SIGTERM, then wait (SIGKILL after `timeout` seconds). Returns the exit
    /// status and how long the stop took.
    func stop(timeout: Double = 30) -> (status: Int32, seconds: Double, killed: Bool) {
        let begin = Monotonic.now()
        kill(pid, SIGTERM)
        let deadline = Monotonic.adding(timeout, to: begin)
        var killed = false
        while process.isRunning {
            if Monotonic.now() > deadline && !killed {
                kill(pid, SIGKILL)
                killed = true
            }
            Monotonic.sleep(0.005)
        }
        process.waitUntilExit()
        return (process.terminationStatus, Monotonic.seconds(from: begin, to: Monotonic.now()), killed)
    }

    /// The last lines of a log file, for error messages.
    static func tail(of path: String, lines: Int = 15) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}

/// Memory figures of a process from `/proc/<pid>/status`.
enum ProcessMemory {
    /// The number in a field of `/proc/<pid>/status` (`VmRSS`: resident now, `VmHWM`: peak
    /// resident, both in kB; `Threads`), or nil.
    static func value(_ field: String, pid: Int32) -> Int? {
        guard let text = ProcFile.read("/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// Resident set size now, in kB.
    static func rssKB(pid: Int32) -> Int? { value("VmRSS", pid: pid) }
    /// Peak resident set size since the process started ("high water mark"), in kB.
    static func peakRSSKB(pid: Int32) -> Int? { value("VmHWM", pid: pid) }
    static func threads(pid: Int32) -> Int? { value("Threads", pid: pid) }
}

/// Reads small files such as those under `/proc` (whose stat size is 0) to the end.
enum ProcFile {
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Samples a process's resident set size from a background thread and keeps the maximum.
final class RSSSampler: Sendable {
    private let state = Mutex<(running: Bool, maxKB: Int)>((true, 0))
    private let finished = DispatchSemaphore(value: 0)

    /// Starts sampling `pid` every `interval` seconds.
    init(pid: Int32, interval: Double = 0.02) {
        let thread = Thread { [self] in
            while state.withLock({ $0.running }) {
                if let kb = ProcessMemory.rssKB(pid: pid) {
                    state.withLock { $0.maxKB = max($0.maxKB, kb) }
                }
                Monotonic.sleep(interval)
            }
            finished.signal()
        }
        thread.start()
    }

    /// Stops sampling and returns the largest VmRSS seen, in kB.
    func stop() -> Int {
        state.withLock { $0.running = false }
        finished.wait()
        return state.withLock { $0.maxKB }
    }
}
