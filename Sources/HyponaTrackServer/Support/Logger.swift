import Foundation
import Synchronization

/// Structured one-line logs on stderr: `level=info msg="request" key=value …` (logfmt), with a
/// `<N>` syslog-priority prefix and no timestamp when stderr is the journal's stream (journald
/// reads the prefix and stamps the entry; see ``JournalStream``). Never pass secrets (tokens,
/// codes, request bodies) as metadata.
public final class Logger: Sendable {
    public enum Level: Int, Sendable, Comparable {
        case debug = 7, info = 6, notice = 5, warning = 4, error = 3
        public static func < (a: Level, b: Level) -> Bool { a.rawValue > b.rawValue }
        var name: String {
            switch self {
            case .debug: return "debug"
            case .info: return "info"
            case .notice: return "notice"
            case .warning: return "warning"
            case .error: return "error"
            }
        }
    }

    let minimum: Level
    let journald: Bool
    private let sink: Mutex<FileHandle?>
    private let capture: (@Sendable (String) -> Void)?

    public init(minimum: Level = .info, capture: (@Sendable (String) -> Void)? = nil) {
        self.minimum = minimum
        self.capture = capture
        journald = capture == nil && JournalStream.isStandardError(ProcessInfo.processInfo.environment["JOURNAL_STREAM"])
        sink = Mutex(capture == nil ? FileHandle.standardError : nil)
    }

    public func log(_ level: Level, _ message: String, _ metadata: [String: String] = [:]) {
        guard level >= minimum else { return }
        var line = journald ? "<\(level.rawValue)>" : "ts=\(iso8601UTC(milliseconds: epochMilliseconds(Date().timeIntervalSince1970))) "
        line += "level=\(level.name) msg=\(Self.quote(message))"
        for key in metadata.keys.sorted() { line += " \(key)=\(Self.quote(metadata[key]!))" }
        if let capture { capture(line); return }
        sink.withLock { $0?.write(Data((line + "\n").utf8)) }
    }

    public func info(_ m: String, _ md: [String: String] = [:]) { log(.info, m, md) }
    public func notice(_ m: String, _ md: [String: String] = [:]) { log(.notice, m, md) }
    public func warning(_ m: String, _ md: [String: String] = [:]) { log(.warning, m, md) }
    public func error(_ m: String, _ md: [String: String] = [:]) { log(.error, m, md) }

    static func quote(_ s: String) -> String {
        if !s.isEmpty, s.allSatisfy({ $0.isLetter || $0.isNumber || "-_./:{}@+".contains($0) }) { return s }
        return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }
}
