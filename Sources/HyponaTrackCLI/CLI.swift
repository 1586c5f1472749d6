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

        Staff commands (talk to the daemon; --server/HYPONATRACK_SERVER, --token/HYPONATRACK_TOKEN):
          enroll      enroll a patient; prints risk class, Kat B status and the activation code
          update ID   change profile fields, add Kat B, withdraw
          reissue ID  new activation code; earlier patient tokens stop working
          lab ID      enter or delete a lab sodium value
          item ID     delete a wrong list item the app sent
          patients    every patient with risk and current level
          show ID     a patient's profile and timeline
          staff       add, list, revoke staff (admin)
          audit       verify the audit chain, list entries
          alerts      yellow and red alerts (--open); ack ALERT [--note]; resolve ALERT --note T [--sodium N]
          hooks       hooks status: deliveries, dead letters, disabled endpoints
          sync        REDCap sync: status, retry, resume, check, reconcile, export-all (admin)
          backup      a consistent online copy of the database (admin); prints its path
        Offline:
          evaluate FILE [--check] [--rules DIR]   evaluate case files (no server)
          version                                 print the version

        Every command takes --help; list and show commands take --json.

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
        case "enroll": return PatientCommands.enroll.run(rest, io: io)
        case "update": return PatientCommands.update.run(rest, io: io)
        case "reissue": return PatientCommands.reissue.run(rest, io: io)
        case "patients": return PatientCommands.patients.run(rest, io: io)
        case "show": return PatientCommands.show.run(rest, io: io)
        case "lab": return OtherCommands.lab.run(rest, io: io)
        case "item": return OtherCommands.item.run(rest, io: io)
        case "staff": return OtherCommands.staff.run(rest, io: io)
        case "audit": return OtherCommands.audit.run(rest, io: io)
        case "sync": return SyncCommand.command.run(rest, io: io)
        case "alerts": return AlertCommands.alerts.run(rest, io: io)
        case "ack": return AlertCommands.ack.run(rest, io: io)
        case "resolve": return AlertCommands.resolve.run(rest, io: io)
        case "hooks": return AlertCommands.hooks.run(rest, io: io)
        case "backup": return OtherCommands.backup.run(rest, io: io)
        case "version", "--version": io.out("hyponatrack \(version)"); return ExitCode.success
        case "help", "--help", "-h": io.out(help); return ExitCode.success
        default:
            io.error("hyponatrack: unknown command \"\(command)\"\n\n\(help)")
            return ExitCode.usage
        }
    }
}
