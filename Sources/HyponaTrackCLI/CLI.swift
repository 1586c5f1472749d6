import Foundation
import HTJSON
import HyponaTrackKit

/// Where the CLI writes (injectable so tests can read what a command printed). Every text line
/// goes through `TerminalText`, so nothing a command prints can drive the terminal, whatever
/// path the outside text took to get there.
public struct CLIOutput: Sendable {
    private let writeOut: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void
    /// Bytes written to standard output as they are, no newline added (`export` and `report`
    /// without `-o` or with `-o -`).
    public var bytes: @Sendable ([UInt8]) -> Void

    /// `out` and `error` receive what a command printed, terminal-safe; without `bytes`, the
    /// bytes go to `out` as UTF-8 text, as they are.
    public init(out: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void,
                bytes: (@Sendable ([UInt8]) -> Void)? = nil) {
        writeOut = out
        writeError = error
        self.bytes = bytes ?? { out(String(decoding: $0, as: UTF8.self)) }
    }

    /// A message, table or help for a person on standard output: control characters escaped,
    /// the line breaks the command put there kept.
    public func out(_ text: String) { writeOut(TerminalText.escaped(text, keepingLineBreaks: true)) }

    /// The same on standard error.
    public func error(_ text: String) { writeError(TerminalText.escaped(text, keepingLineBreaks: true)) }

    /// A JSON document on standard output exactly as serialised (`--json`, `evaluate`): JSON
    /// already escapes every C0 control in its strings, and a `\u{…}` escape would not be JSON.
    func json(_ value: JSONValue) { writeOut(JSONSerializer.string(value, pretty: true)) }

    public static let standard = CLIOutput(
        out: { write(Array(($0 + "\n").utf8), to: STDOUT_FILENO) },
        error: { write(Array(($0 + "\n").utf8), to: STDERR_FILENO) },
        bytes: { write($0, to: STDOUT_FILENO) })

    /// Writes all of `bytes` (retrying short writes and EINTR). A reader that went away
    /// (`hyponatrack alerts | head`; SIGPIPE is ignored for libcurl's sake) ends the program as
    /// that signal would, status 141, without a crash; any other failure (a full disk) is
    /// reported on stderr, status 1. FileHandle.write(_:) traps on both.
    static func write(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            if errno == EPIPE { exit(141) }
            if fd != STDERR_FILENO {
                let message = Array("hyponatrack: cannot write the output: \(String(cString: strerror(errno)))\n".utf8)
                _ = message.withUnsafeBytes { Foundation.write(STDERR_FILENO, $0.baseAddress!, $0.count) }
            }
            exit(1)
        }
    }
}

/// `hyponatrack`: the nurse and data-manager command line.
public enum CLI {
    public static let version = HyponaTrackVersion.string

    static let help = """
        Usage: hyponatrack [GLOBAL OPTIONS] COMMAND [SUBCOMMAND] [OPTIONS] [GLOBAL OPTIONS]

        Staff commands (talk to the daemon):
          enroll      enroll a patient; prints risk class, Kat B status and the activation code
          update ID   change profile fields, add Kat B, withdraw
          reissue ID  new activation code; earlier patient tokens stop working
          lab ID      enter or delete a lab sodium value
          item ID     delete a wrong list item the app sent
          patients    every patient with risk and current level
          show ID     a patient's profile and timeline
          staff       add, list, revoke staff (admin); rotate a token (admin, or your own)
          audit       verify the audit chain (--checkpoint SEQ:HEX), checkpoint it, list entries
          alerts      yellow and red alerts (--open); ack ALERT [--note]; resolve ALERT --note T [--sodium N]
          contact ID  log a contact attempt: --outcome O [--note T] [--alert ALERT]; contacts ID lists them
          outcome ID  record an outcome: --kind K --date D [--sodium N] [--note T]
          outcomes    list ID: a patient's outcomes; report: the outcome report (--json, --csv)
          rules       backtest --rules DIR, shadow --rules DIR | --off, promote (admin)
          hooks       hooks status, list events, retry EVENT_ID, enable NAME (admin)
          sync        REDCap sync: status, retry, resume, check, reconcile, export-all (admin)
          backup      a checked online copy of the database (admin); list; verify FILE
          export      days, alerts, contacts or outcomes as CSV (--patient ID, -o FILE; stdout without -o or with -o -)
          report ID   the clinical report as a PDF (-o FILE, --lang de|en; stdout without -o or with -o -)
          stats       cohort statistics: adherence, days per level, alert rates, times to ack
          import      import fhir FILE, import apple-health ID FILE: lab and wearable values, proposed
          proposals   imported values waiting for a nurse [ID] [--status S]
          confirm     confirm PROPOSAL... [--note T] [--override]: applied as a staff correction
          reject      reject PROPOSAL... [--note T]
        Offline:
          evaluate FILE [--check] [--rules DIR]   evaluate case files (no server)
          version                                 print the version
          help [COMMAND [SUBCOMMAND]]             this help, or a command's

        Global options, before or after the command (and its subcommand):
          --server URL        the daemon; else HYPONATRACK_SERVER, else http://127.0.0.1:8750
          --token-file PATH   read the staff token from PATH (trimmed; it must be readable by its
                              owner only, chmod 600), so it never appears in `ps`
          --token TOKEN       the staff token itself (visible to other users in `ps`)
          The token is taken from --token, else --token-file (giving both is a usage error),
          else the HYPONATRACK_TOKEN environment variable.
          -h, --help          usage of hyponatrack, of a command, or of a subcommand

        Every staff command takes --json and then prints the server's answer as it is, except
        export and report (they write CSV and PDF); the offline commands refuse it (evaluate always prints JSON).

        HyponaTrack is a study tool, not a validated medical device; its rules are defaults
        derived from published evidence, not a validated clinical rule.
        Exit codes: 0 success, 1 refused/failed/differences, 64 usage, 69 server unreachable,
        77 authentication or permission refused.
        """

    /// Every command, in the order of the help.
    static let commands: [any CLICommand] = [
        PatientCommands.enroll, PatientCommands.update, PatientCommands.reissue, OtherCommands.lab, OtherCommands.item,
        PatientCommands.patients, PatientCommands.show, OtherCommands.staff, SiteCommands.site, SiteCommands.transfer, OtherCommands.audit,
        AlertCommands.alerts,
        AlertCommands.ack, AlertCommands.resolve, ContactCommands.contact, ContactCommands.contacts,
        OutcomeCommands.outcome, OutcomeCommands.group, RuleCommands.group, HookCommands.group, SyncCommand.group, BackupCommands.group,
        ExportCommands.export, ReportCommand(), ExportCommands.stats, ImportCommands.group, ImportCommands.proposals,
        ImportCommands.confirm, ImportCommands.reject, EvaluateCommand(), VersionCommand(),
    ]

    /// Global options and `-h`/`--help`/`--version` may stand before the command; the global
    /// options are handed to the command, which accepts them after its name as well.
    public static func run(_ arguments: [String], io: CLIOutput = .standard) -> Int32 {
        let leading: GlobalOptions.Leading
        do { leading = try GlobalOptions.leading(arguments) } catch {
            io.error("hyponatrack: \(error.message)\n\nMore: hyponatrack --help")
            return ExitCode.usage
        }
        if leading.version { io.out("hyponatrack \(version)"); return ExitCode.success }
        guard let name = leading.rest.first else {
            if leading.help { io.out(help); return ExitCode.success }
            io.error(help)
            return ExitCode.usage
        }
        let rest = leading.options + (leading.help ? ["--help"] : []) + leading.rest.dropFirst()
        if name == "help" {
            let topic: [String]
            do { topic = try Arguments(Array(rest), spec: .init()).positionals } catch {
                io.error("help: \(error.message)\n\nUsage: hyponatrack help [COMMAND [SUBCOMMAND]]")
                return ExitCode.usage
            }
            if topic.isEmpty { io.out(help); return ExitCode.success }
            return run(topic + ["--help"], io: io)
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            io.error("hyponatrack: unknown command \"\(name)\"\n\n\(help)")
            return ExitCode.usage
        }
        return command.run(Array(rest), io: io)
    }
}

/// `hyponatrack version`.
struct VersionCommand: CLICommand {
    let name = "version"
    var help: String { Help.text(["version"], "Prints the version of this hyponatrack.", footer: nil) }

    func run(_ args: [String], io: CLIOutput) -> Int32 {
        do throws(UsageError) {
            let parsed = try Arguments(args, spec: .init(flags: ["json"]))
            if parsed.flag("help") { io.out(help); return ExitCode.success }
            if parsed.flag("json") { throw UsageError("--json: version has no JSON form") }
            if let extra = parsed.positionals.first { throw UsageError("unexpected argument \(extra)") }
        } catch {
            return usageError(error, usage: ["version"], io: io)
        }
        io.out("hyponatrack \(CLI.version)")
        return ExitCode.success
    }
}
