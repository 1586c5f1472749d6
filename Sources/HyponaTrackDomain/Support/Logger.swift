import Foundation
import Synchronization

/// Structured one-line logs on stderr: `level=info msg="request" key=value …` (logfmt), with a
/// `<N>` syslog-priority prefix and no timestamp when stderr is the journal's stream (journald
/// reads the prefix and stamps the entry; see ``JournalStream``). Never pass secrets (tokens,
/// codes, request bodies) as metadata.
///
/// `info` and `debug` lines (one per request) wait in a buffer for at most
/// `infoDelayMilliseconds` or until it holds `infoBufferBytes`, and go out in one write: a
/// write(2) per request was ≈ 1.5 % of the daemon's CPU under load. A `notice`, `warning` or
/// `error` line writes the buffer and itself at once, so lines keep their order and everything
/// logged before the daemon's `stopped` notice is out when it exits; a crash (or `kill -9`) can
/// lose the last `infoDelayMilliseconds` of info lines.
public final class Logger: Sendable {
    public enum Level: Int, Sendable, Comparable {
        case debug = 7, info = 6, notice = 5, warning = 4, error = 3
        public static func < (a: Level, b: Level) -> Bool { a.rawValue > b.rawValue }
        public var name: String {
            switch self {
            case .debug: return "debug"
            case .info: return "info"
            case .notice: return "notice"
            case .warning: return "warning"
            case .error: return "error"
            }
        }
    }

    /// The lowest level written (`Level.rawValue`; `log.level`), changed by a SIGHUP reload.
    private let minimumLevel: Atomic<Int>
    let journald: Bool
    private let sink: Mutex<StandardErrorSink?>
    private let capture: (@Sendable (String) -> Void)?
    static let infoDelayMilliseconds = 20
    static let infoBufferBytes = 16 * 1024

    public init(minimum: Level = .info, capture: (@Sendable (String) -> Void)? = nil) {
        minimumLevel = Atomic(minimum.rawValue)
        self.capture = capture
        journald = capture == nil && JournalStream.isStandardError(ProcessInfo.processInfo.environment["JOURNAL_STREAM"])
        sink = Mutex(capture == nil ? StandardErrorSink() : nil)
    }

    /// The lowest level written now.
    public var minimum: Level { Level(rawValue: minimumLevel.load(ordering: .relaxed)) ?? .info }

    /// Writes `level` and above from now on (`log.level` reloaded by SIGHUP); errors are always written.
    public func setMinimum(_ level: Level) {
        minimumLevel.store(min(level, .warning).rawValue, ordering: .relaxed)
    }

    /// Whether a line at `level` would be written (to skip building an expensive one).
    public func writes(_ level: Level) -> Bool { level.rawValue <= minimumLevel.load(ordering: .relaxed) }

    public func log(_ level: Level, _ message: String, _ metadata: [String: String] = [:]) {
        guard writes(level) else { return }
        var text = line(level, message, metadata)
        if let capture { capture(String(decoding: text, as: UTF8.self)); return }
        text.append(UInt8(ascii: "\n"))
        let waits = level <= .info
        // Whether this line started the buffer and is still in it: then a flush is due later.
        let started = sink.withLock { sink -> Bool in
            guard sink != nil else { return false }
            let first = sink!.buffer(text)
            if !waits || sink!.bufferedBytes >= Self.infoBufferBytes { sink!.flush(dropNotice: dropNotice) }
            return first && sink!.bufferedBytes > 0
        }
        if started {
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(Self.infoDelayMilliseconds)) {
                self.flush()
            }
        }
    }

    /// Writes the buffered info lines now.
    public func flush() {
        sink.withLock { $0?.flush(dropNotice: dropNotice) }
    }

    private func dropNotice(_ dropped: Int) -> [UInt8] {
        line(.warning, "log lines dropped: stderr did not take them", ["dropped": String(dropped)]) + [UInt8(ascii: "\n")]
    }

    /// One logfmt line, without its newline. (Built as bytes: every request logs one.)
    private func line(_ level: Level, _ message: String, _ metadata: [String: String]) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(192)
        if journald {
            line.append(contentsOf: "<\(level.rawValue)>".utf8)
        } else {
            line.append(contentsOf: "ts=".utf8)
            line.append(contentsOf: iso8601UTC(milliseconds: epochMilliseconds(Date().timeIntervalSince1970)).utf8)
            line.append(UInt8(ascii: " "))
        }
        line.append(contentsOf: "level=".utf8)
        line.append(contentsOf: level.name.utf8)
        line.append(contentsOf: " msg=".utf8)
        Self.appendQuoted(message, to: &line)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: key.utf8)
            line.append(UInt8(ascii: "="))
            Self.appendQuoted(value, to: &line)
        }
        return line
    }

    public func debug(_ m: String, _ md: [String: String] = [:]) { log(.debug, m, md) }
    public func info(_ m: String, _ md: [String: String] = [:]) { log(.info, m, md) }
    public func notice(_ m: String, _ md: [String: String] = [:]) { log(.notice, m, md) }
    public func warning(_ m: String, _ md: [String: String] = [:]) { log(.warning, m, md) }
    public func error(_ m: String, _ md: [String: String] = [:]) { log(.error, m, md) }

    static func quote(_ s: String) -> String {
        var out: [UInt8] = []
        appendQuoted(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `s` bare when it is a non-empty run of ASCII letters, digits and `-_./:{}@+`, else in
    /// double quotes with `\\`, `"` and newlines escaped. (Every request logs a line, so this
    /// looks at bytes, not `Character`s.)
    static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        if !s.isEmpty, s.utf8.allSatisfy(isBare) { out.append(contentsOf: s.utf8); return }
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: "\\n".utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"),
             UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "@"), UInt8(ascii: "+"):
            return true
        default:
            return false
        }
    }
}
