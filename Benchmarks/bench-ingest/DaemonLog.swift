import Foundation

/// The daemon's log after the run: how many lines per level, how many 5xx answers it logged,
/// and the first warnings and errors verbatim.
enum DaemonLog {
    static func summarize(_ path: String) {
        let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n")
        var levels: [String: Int] = [:]
        var serverErrors = 0
        var notable: [Substring] = []
        for line in lines {
            let level = field("level", in: line) ?? "?"
            levels[level, default: 0] += 1
            if let status = field("status", in: line).flatMap({ Int($0) }), status >= 500 { serverErrors += 1 }
            if ["warning", "error", "critical"].contains(level) && notable.count < 3 { notable.append(line) }
        }
        say("daemon log: \(lines.count) lines (\(levels.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))), "
            + "\(serverErrors) requests answered 5xx")
        for line in notable { say("  \(line.prefix(400))") }
    }

    /// The value of `name=value` (or `name="value"`) in a log line.
    private static func field(_ name: String, in line: Substring) -> String? {
        guard let range = line.range(of: " \(name)=") else { return nil }
        let rest = line[range.upperBound...]
        if rest.first == "\"" {
            let body = rest.dropFirst()
            return String(body.prefix(while: { $0 != "\"" }))
        }
        return String(rest.prefix(while: { $0 != " " }))
    }
}
