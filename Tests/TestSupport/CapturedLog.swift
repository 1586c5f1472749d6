import Synchronization
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// A logger whose lines a test reads back.
final class CapturedLog: Sendable {
    private let lines = Mutex<[String]>([])
    var logger: Logger { Logger(minimum: .debug, capture: { line in self.lines.withLock { $0.append(line) } }) }
    var all: [String] { lines.withLock { $0 } }

    /// The `service=` values of the lines whose message is `message`, in order.
    func services(_ message: String) -> [String] {
        all.filter { $0.contains("msg=\(Logger.quote(message)) ") }.compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("service=") }.map { String($0.dropFirst("service=".count)) }
        }
    }
}

/// An ordered record of what test services did, from any thread.
final class Journal: Sendable {
    private let entries = Mutex<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}
