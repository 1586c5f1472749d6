import Foundation
import Testing
import HTJSON
@testable import HyponaTrackCLI

/// The conventions every `hyponatrack` command shares (docs/product.md, "Settled details", CLI):
/// help at every level, global options in any position, the token file, `--json`, usage errors.
/// In process, through `CLI.run`; nothing here reaches a daemon (the server is unreachable).
@Suite struct CLIConventionsTests {
    typealias Captured = EvaluateCommandTests.Captured
    static let nowhere = "http://127.0.0.1:1"

    func run(_ args: [String]) -> (Int32, Captured) {
        let c = Captured()
        return (CLI.run(args, io: c.io), c)
    }

    /// A file holding `text` with `mode`.
    func file(_ text: String, mode: mode_t) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        #expect(chmod(path, mode) == 0)
        return path
    }

    func token(_ args: [String], environment: [String: String] = [:]) throws -> String? {
        try GlobalOptions.token(try Arguments(args, spec: .init()), environment: environment)
    }

    // MARK: help

    static let commandLines = CLI.commands.flatMap(\.commandLines)

    @Test(arguments: commandLines)
    func everyCommandAndSubcommandPrintsItsUsageForDashHAndDashDashHelp(_ line: String) {
        let words = line.split(separator: " ").map(String.init)
        for args in [words + ["-h"], words + ["--help"], ["help"] + words, ["-h"] + words] {
            let (code, c) = run(args)
            #expect(code == 0, "\(args): \(c.stderr)")
            #expect(c.stdout.hasPrefix("Usage: hyponatrack \(line)"), "\(args): \(c.stdout)")
            #expect(c.stderr.isEmpty, "\(args)")
        }
    }

    @Test func theRegistryHoldsEveryCommandOfTheSynopsis() {
        let lines = Set(Self.commandLines)
        for line in ["enroll", "update", "reissue", "lab", "item", "patients", "show", "alerts", "ack", "resolve",
                     "staff add", "staff list", "staff revoke", "sync status", "sync retry", "sync resume", "sync check",
                     "sync reconcile", "sync export-all", "hooks status", "audit verify", "audit checkpoint", "audit list", "backup", "export days", "export alerts", "export contacts", "contact", "contacts", "report", "stats", "evaluate",
                     "import fhir", "import apple-health", "proposals", "confirm", "reject",
                     "version"] {
            #expect(lines.contains(line), "\(line)")
        }
    }

    @Test func theTopLevelHelpDocumentsTheGlobalOptionsAndTheTokenPrecedence() {
        for args in [["-h"], ["--help"], ["help"], ["--server", Self.nowhere, "-h"]] {
            let (code, c) = run(args)
            #expect(code == 0)
            #expect(c.stdout.hasPrefix("Usage: hyponatrack"))
            #expect(c.stdout.contains("--token-file PATH"))
            #expect(c.stdout.contains("The token is taken from --token, else --token-file (giving both is a usage error),"))
        }
    }

    @Test func helpWinsOverMissingArgumentsUnknownOptionsAndBadValues() {
        for args in [["staff", "add", "-h"], ["resolve", "--help"], ["lab", "-h"], ["enroll", "--bogus", "-h"],
                     ["sync", "retry", "--dead=yes", "--help"], ["update", "--token", "a", "--token-file", "b", "-h"],
                     ["staff", "-h", "add"]] {
            let (code, c) = run(args)
            #expect(code == 0, "\(args): \(c.stderr)")
            #expect(c.stdout.hasPrefix("Usage: hyponatrack \(args[0])"), "\(args)")
        }
    }

    // MARK: global options

    @Test func globalOptionsBeforeTheCommandAreHandedToIt() throws {
        let l = try GlobalOptions.leading(["--server", "http://x", "--token=abc", "--token-file", "/f", "staff", "list", "--json"])
        #expect(l.options == ["--server", "http://x", "--token", "abc", "--token-file", "/f"])
        #expect(l.rest == ["staff", "list", "--json"])
        #expect(!l.help)
    }

    @Test func anOptionBeforeTheCommandThatIsNotGlobalIsAUsageErrorNamingIt() {
        let (code, c) = run(["--json", "patients"])
        #expect(code == 64)
        #expect(c.stderr.contains("unknown option --json before the command"))
        #expect(run(["--server"]).0 == 64)
    }

    @Test func aGlobalOptionGivenBeforeAndAfterTheCommandIsGivenTwice() {
        let (code, c) = run(["--server", Self.nowhere, "patients", "--server", Self.nowhere])
        #expect(code == 64 && c.stderr.contains("--server given twice"), "\(c.stderr)")
    }

    @Test func theOfflineCommandsAcceptTheGlobalOptions() {
        #expect(run(["--server", Self.nowhere, "--token", "t", "version"]).0 == 0)
        #expect(run(["version", "--token-file", "/nonexistent"]).0 == 0)
    }

    // MARK: the token

    @Test func theTokenComesFromTokenThenTokenFileThenTheEnvironment() throws {
        let path = try file("  hts_from_file\n", mode: 0o600)
        let env = ["HYPONATRACK_TOKEN": " hts_from_env\n"]
        #expect(try token(["--token", "hts_flag "], environment: env) == "hts_flag")
        #expect(try token(["--token-file", path], environment: env) == "hts_from_file")
        #expect(try token([], environment: env) == "hts_from_env")
        #expect(try token([]) == nil)
        #expect(try token(["--token-file", try file("hts_ro", mode: 0o400)]) == "hts_ro")
    }

    @Test func tokenAndTokenFileTogetherAreAUsageError() throws {
        let path = try file("hts_x", mode: 0o600)
        #expect(throws: UsageError.self) { try token(["--token", "hts_y", "--token-file", path]) }
        let (code, c) = run(["patients", "--server", Self.nowhere, "--token", "hts_y", "--token-file", path])
        #expect(code == 64 && c.stderr.contains("--token and --token-file exclude each other"), "\(c.stderr)")
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660] as [mode_t])
    func aTokenFileOpenToGroupOrOthersIsRefused(_ mode: mode_t) throws {
        let path = try file("hts_secret", mode: mode)
        let (code, c) = run(["--token-file", path, "patients", "--server", Self.nowhere])
        #expect(code == 64)
        #expect(c.stderr.contains("--token-file \(path) is open to group or others (mode \(String(mode, radix: 8)))"), "\(c.stderr)")
        #expect(c.stderr.contains("chmod 600 \(path)"))
        #expect(!c.stderr.contains("hts_secret"))
    }

    @Test func aMissingEmptyOrNonRegularTokenFileIsAUsageErrorNamingIt() throws {
        let missing = "/nonexistent/token-\(UUID().uuidString)"
        let cases = [(missing, "--token-file \(missing): cannot open it (No such file or directory)"),
                     (try file(" \n", mode: 0o600), "is empty"),
                     (FileManager.default.temporaryDirectory.path, "not a regular file")]
        for (path, message) in cases {
            let (code, c) = run(["patients", "--token-file", path, "--server", Self.nowhere])
            #expect(code == 64, "\(path)")
            #expect(c.stderr.contains(message), "\(c.stderr)")
        }
    }

    // MARK: --json and usage errors

    @Test func commandsWithoutAJSONFormRefuseJSONNamingTheOption() {
        for args in [["version", "--json"], ["evaluate", "cases.json", "--json"], ["export", "days", "--json"],
                     ["export", "--json", "alerts"], ["report", "X", "--json"]] {
            let (code, c) = run(args)
            #expect(code == 64, "\(args)")
            #expect(c.stderr.contains("--json"), "\(args): \(c.stderr)")
        }
    }

    @Test func theStaffCommandsAcceptJSON() {
        // Parsed, then refused by the unreachable server (69), not by the parser (64).
        for line in ["sync retry", "sync resume", "sync export-all", "sync status", "staff list", "audit verify", "patients",
                     "show X", "reissue X", "hooks status", "backup", "alerts", "stats", "stats --patient X",
                     "proposals", "proposals X --status rejected", "confirm 1 2", "reject 3"] {
            let (code, c) = run(line.split(separator: " ").map(String.init) + ["--json", "--server", Self.nowhere, "--token", "hts_x"])
            #expect(code == 69, "\(line): \(c.stderr)")
        }
    }

    @Test func unknownOptionsAndSubcommandsAreUsageErrorsNamingThem() {
        let cases: [([String], String)] = [
            (["patients", "--bogus"], "unknown option --bogus"), (["sync", "retry", "--frob=1"], "unknown option --frob"),
            (["staff", "list", "-x"], "unknown option -x"), (["sync", "frobnicate"], "unknown subcommand \"frobnicate\""),
            (["sync"], "expected a subcommand: status, retry, resume, check, reconcile, export-all"),
            (["show"], "expected ID"), (["show", "A", "B"], "unexpected argument B"),
            (["report"], "expected ID"), (["report", "A", "B"], "unexpected argument B"), (["report", "A", "--lang", "fr"], "--lang"), (["frobnicate"], "unknown command"),
            (["help", "--bogus"], "unknown option --bogus"),
        ]
        for (args, message) in cases {
            let (code, c) = run(args + ["--server", Self.nowhere, "--token", "hts_x"])
            #expect(code == 64, "\(args)")
            #expect(c.stderr.contains(message), "\(args): \(c.stderr)")
        }
    }

    // MARK: enrolment

    static let enrolment = ["--study-id", "E-1", "--surgery-date", "2025-03-01", "--age", "60", "--sex", "female", "--bmi", "24",
                            "--baseline-weight", "70"]

    @Test func enrolmentWithoutTimeZoneLeavesItToTheServer() throws {
        let body = try PatientCommands.enrollment(try Arguments(Self.enrolment, spec: PatientCommands.enroll.spec))
        #expect(body["timeZone"] == nil)
        #expect(body["studyId"] == "E-1" && body["age"] == 60)
    }

    @Test func enrolmentWithTimeZoneSendsIt() throws {
        let args = Self.enrolment + ["--time-zone", "America/New_York"]
        let body = try PatientCommands.enrollment(try Arguments(args, spec: PatientCommands.enroll.spec))
        #expect(body["timeZone"] == "America/New_York")
    }
}
