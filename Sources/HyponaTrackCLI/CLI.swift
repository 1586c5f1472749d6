import Foundation
import HyponaTrackKit

/// Where the CLI writes (injectable so tests can read what a command printed).
public struct CLIOutput: Sendable {
    public var out: @Sendable (String) -> Void
    public var error: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.error = error
    }

    public static let standard = CLIOutput(
        out: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
        error: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
}

/// `hyponatrack`: the nurse and data-manager command line.
public enum CLI {
    public static let version = HyponaTrackVersion.string

    static let help = """
        Usage: hyponatrack COMMAND [OPTIONS]

        Commands available in this build:
          evaluate FILE [--check] [--rules DIR]   evaluate case files offline (no server)
          version                                 print the version

        The staff commands (enroll, update, patients, show, lab, alerts, sync, audit, backup …)
        talk to the daemon and arrive with it. Every command takes --help.

        HyponaTrack is a study tool, not a validated medical device; its rules are defaults
        derived from published evidence, not a validated clinical rule.
        Exit codes: 0 success, 1 refused/failed/differences, 64 usage, 69 server unreachable,
        77 authentication or permission refused.
        """

    public static func run(_ arguments: [String], io: CLIOutput = .standard) -> Int32 {
        guard let command = arguments.first else {
            io.error(help)
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "evaluate": return EvaluateCommand.run(rest, io: io)
        case "version", "--version": io.out("hyponatrack \(version)"); return ExitCode.success
        case "help", "--help", "-h": io.out(help); return ExitCode.success
        default:
            io.error("hyponatrack: unknown command \"\(command)\"\n\n\(help)")
            return ExitCode.usage
        }
    }
}
