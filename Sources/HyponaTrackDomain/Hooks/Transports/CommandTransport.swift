#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A site's own paging script: the configured executable runs directly (no shell, so nothing
/// in an event can be interpreted as shell syntax) with the configured arguments and the event
/// JSON on stdin. Exit status 0 is a delivery; any other status, a signal or the timeout is
/// retried (with the status and the end of stderr in the reason). So is a command that cannot be
/// started (ENOENT, EACCES, ETXTBSY: it may be being redeployed), on the same schedule and up to
/// the same 24 h as other failures; only a path that is not absolute fails for good.
///
/// The command gets a small environment, never the daemon's (which may hold
/// `HYPONATRACK_REDCAP_TOKEN` or `CREDENTIALS_DIRECTORY`): `PATH` (the daemon's, else
/// `/usr/local/bin:/usr/bin:/bin`), `HOME`, `LANG`, `LC_ALL`, `TZ`, `TMPDIR`, `USER`, `LOGNAME`
/// when set, plus `HYPONATRACK_EVENT_ID` and `HYPONATRACK_EVENT_TYPE`. It starts in its own
/// process group with default signal handling and only fds 0–2 open, in the daemon's working
/// directory and with its user and umask.
///
/// `deliver` blocks for at most `timeout` + `killGrace` (+ a few milliseconds). When the daemon
/// stops meanwhile (`stopping`), the command is ended the same way at once (SIGTERM, `killGrace`
/// later SIGKILL) and the attempt is ``DeliveryResult/interrupted(_:)``: due again at the next
/// start. So a stop never waits for a long `timeoutSeconds`, never leaves the command running
/// behind the daemon, and never loses the page (it may be repeated if the command had already
/// paged before it was killed: its outcome is unknown).
public struct CommandTransport: HookTransport {
    public let path: String
    public let args: [String]
    /// How long the command may run before it is sent SIGTERM.
    public let timeout: Duration
    /// How long after SIGTERM it is sent SIGKILL.
    public let killGrace: Duration
    /// Bytes of stdout and of stderr kept (the start of stdout, the end of stderr).
    public static let outputLimit = 8 * 1024

    public init(path: String, args: [String] = [], timeout: Duration = .seconds(30), killGrace: Duration = .seconds(2)) {
        self.path = path
        self.args = args
        self.timeout = timeout
        self.killGrace = killGrace
    }

    /// Why `path` cannot be a command hook right now, or nil: it must be absolute, exist, and be
    /// an executable regular file for this process. For start-up checks (a later failure is
    /// still reported per delivery).
    public static func validate(path: String) -> String? {
        guard path.hasPrefix("/") else { return "\(path) is not an absolute path" }
        var info = stat()
        guard stat(path, &info) == 0 else { return "\(path): \(ChildProcess.text(of: errno))" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "\(path) is not a regular file" }
        guard access(path, X_OK) == 0 else { return "\(path) is not executable by this user" }
        return nil
    }

    public func deliver(eventId: String, timestamp: Int64, body: [UInt8]) -> DeliveryResult {
        deliver(eventId: eventId, timestamp: timestamp, body: body, stopping: { false })
    }

    public func deliver(eventId: String, timestamp: Int64, body: [UInt8],
                        stopping: @escaping @Sendable () -> Bool) -> DeliveryResult {
        guard path.hasPrefix("/") else { return .failed("command \(path) is not an absolute path") }
        let type = StoredHookEvent(body: body).type
        let process = ChildProcess(path: path, arguments: args,
                                   environment: Self.environment(eventId: eventId, type: type),
                                   timeout: timeout, killGrace: killGrace, outputLimit: Self.outputLimit, interrupted: stopping)
        switch process.run(input: body) {
        case .failure(let error):
            switch error.kind {
            // Checked at start, so most likely a redeploy in progress: a red-alert page must
            // not be lost for good over a missing or not yet executable file.
            case .notFound, .notExecutable, .resources: return .retry(reason: "command \(error.message)", afterSeconds: nil)
            }
        case .success(let outcome):
            let stderr = Self.excerpt(outcome.stderrTail)
            switch outcome.termination {
            case .exited(0):
                return .delivered
            case .exited(let status):
                return .retry(reason: "command \(path) exited with status \(status)\(stderr)", afterSeconds: nil)
            case .signaled(let signal):
                return .retry(reason: "command \(path) was killed by signal \(signal)\(stderr)", afterSeconds: nil)
            case .unknown:
                return .retry(reason: "command \(path) ended, but its exit status was collected elsewhere\(stderr)",
                              afterSeconds: nil)
            case .timedOut:
                return .retry(reason: "command \(path) did not finish within \(Self.seconds(timeout)) s and was killed\(stderr)",
                              afterSeconds: nil)
            case .interrupted:
                return .interrupted("command \(path) was still running when the daemon stopped and was killed\(stderr)")
            }
        }
    }

    /// The child's whole environment (see the type's documentation).
    static func environment(eventId: String, type: String) -> [String] {
        var entries: [String] = []
        for name in ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR", "USER", "LOGNAME"] {
            if let value = getenv(name) {
                entries.append("\(name)=\(String(cString: value))")
            } else if name == "PATH" {
                entries.append("PATH=/usr/local/bin:/usr/bin:/bin")
            }
        }
        // Both come from the outbox (an id we generated, a type from a fixed list); strip
        // anything that could not appear in an environment entry anyway.
        let clean: (String) -> String = { String($0.unicodeScalars.filter { $0.value > 0x20 && $0.value < 0x7F }.prefix(100)) }
        entries.append("HYPONATRACK_EVENT_ID=\(clean(eventId))")
        entries.append("HYPONATRACK_EVENT_TYPE=\(clean(type))")
        return entries
    }

    /// ": <the last lines of stderr>" for the operator: lines joined with " | ", printable
    /// characters only, at most the last 300.
    static func excerpt(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map { line in
            String(line.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
                .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        let joined = lines.filter { !$0.isEmpty }.joined(separator: " | ")
        guard !joined.isEmpty else { return "" }
        return ": " + (joined.count > 300 ? "…" + joined.suffix(300) : joined)
    }

    private static func seconds(_ d: Duration) -> String {
        let ms = ChildProcess.milliseconds(d)
        return ms % 1000 == 0 ? String(ms / 1000) : String(Double(ms) / 1000)
    }
}
