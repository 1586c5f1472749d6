import Foundation

/// Command-line options of `bench-ingest`.
struct Options {
    /// The daemon binary.
    var daemon = ".build/release/hyponatrackd"
    /// The daemon's configuration file (rules are found next to it).
    var config = Options.repositoryRoot + "/config/hyponatrack.json"
    /// Parent of the temporary directory holding the ceiling database and the daemon's data.
    var directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    /// Concurrent clients of each configuration, run in this order.
    var clients = [1, 4, 16]
    var repetitions = 3
    var warmupSeconds = 1.0
    var durationSeconds = 5.0
    var ceilingSeconds = 3.0
    /// Patients enrolled before the runs (handed out to clients as they need fresh ones). Each
    /// takes days × perDay = 96 submissions; at 3,000–5,000/s the runs of 1, 4 and 16 clients
    /// need ≈ 1,500, so 800 ran out and later runs wrote to grown days.
    var patients = 4000
    /// Submissions per patient and date before a client moves on (see `PatientPool`).
    var perDay = 8
    /// Dates each patient's submissions fill, oldest first (the last ones before today).
    var days = 12
    /// Requests per second of the paced runs (``PacedProbe``); 0: none.
    var pacedRate = 0.0
    var pacedSeconds = 8.0
    /// Keep the temporary directory (database, daemon log) for inspection.
    var keep = false

    /// The package root, from this file's path at build time (as bench-core finds its fixtures).
    static var repositoryRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    static let usage = """
        Usage: bench-ingest [--daemon PATH] [--config FILE] [--dir DIR] [--clients 1,4,16]
                            [--repetitions N] [--warmup S] [--duration S] [--ceiling-seconds S]
                            [--patients N] [--per-day N] [--days N] [--keep]
                            [--paced RATE [--paced-duration S]]   (CPU per request below saturation)
        """

    static func parse(_ arguments: [String]) throws -> Options {
        var o = Options()
        var i = 0
        func value() throws -> String {
            guard i + 1 < arguments.count else { throw BenchError("\(arguments[i]) needs a value\n\(usage)") }
            i += 1
            return arguments[i]
        }
        func number<T: LosslessStringConvertible & Comparable>(_ minimum: T) throws -> T {
            let name = arguments[i]
            guard let v = T(try value()), v >= minimum else { throw BenchError("\(name): expected a number ≥ \(minimum)") }
            return v
        }
        while i < arguments.count {
            switch arguments[i] {
            case "--daemon": o.daemon = try value()
            case "--config": o.config = try value()
            case "--dir": o.directory = try value()
            case "--clients":
                let list = try value().split(separator: ",").compactMap { Int($0) }
                guard !list.isEmpty, list.allSatisfy({ $0 >= 1 }), Set(list).count == list.count else {
                    throw BenchError("--clients: distinct counts, e.g. 1,4,16")
                }
                o.clients = list
            case "--repetitions": o.repetitions = try number(1)
            case "--warmup": o.warmupSeconds = try number(0.0)
            case "--duration": o.durationSeconds = try number(0.1)
            case "--ceiling-seconds": o.ceilingSeconds = try number(0.1)
            case "--patients": o.patients = try number(1)
            case "--per-day": o.perDay = try number(1)
            case "--days": o.days = try number(1)
            case "--keep": o.keep = true
            case "--paced": o.pacedRate = try number(1.0)
            case "--paced-duration": o.pacedSeconds = try number(1.0)
            case "--help", "-h": print(usage); exit(0)
            default: throw BenchError("unknown argument \(arguments[i])\n\(usage)")
            }
            i += 1
        }
        guard o.days <= 12 else { throw BenchError("--days: at most 12 (the monitoring window starts on POD 1)") }
        return o
    }
}
