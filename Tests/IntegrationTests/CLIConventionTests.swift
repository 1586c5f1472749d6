import Foundation
import Testing
import HTJSON

/// The CLI conventions (docs/product.md, "Settled details", CLI) with the real `hyponatrack`
/// binary against the real daemon: global options before or after the command, `--token-file`,
/// `-h`/`--help` at every level, `--json` everywhere, usage errors naming the option.
@Suite struct CLIConventionTests {
    /// What HYPONATRACK_SERVER says when a test wants `--server` to be what reaches the daemon.
    static let nowhere = "http://127.0.0.1:1"

    static func tokenFile(_ text: String, mode: mode_t = 0o600) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cli-token-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)), chmod(path, mode) == 0 else {
            throw TestFailure("cannot write \(path)")
        }
        return path
    }

    static func json(_ r: CLIRunner.Result, _ what: String) throws -> JSONValue {
        guard r.status == 0 else { throw TestFailure("\(what): exit \(r.status): \(r.stderr)") }
        do { return try JSONParser.parse(r.stdout) } catch { throw TestFailure("\(what) --json is not JSON: \(r.stdout)") }
    }

    static func object(_ r: CLIRunner.Result, _ what: String) throws -> JSONObject {
        guard case .object(let o) = try json(r, what) else { throw TestFailure("\(what) --json is not an object: \(r.stdout)") }
        return o
    }

    @Test func globalOptionsWorkBeforeAfterAndBetweenTheCommandAndItsSubcommand() throws {
        let d = try TestDaemon()
        let url = d.baseURL, admin = d.adminToken
        let lines: [[String]] = [
            ["--server", url, "--token", admin, "patients"], ["patients", "--server", url, "--token", admin],
            ["--server=\(url)", "audit", "verify", "--token=\(admin)"], ["audit", "--server", url, "--token", admin, "verify"],
            ["--token", admin, "staff", "list", "--json", "--server", url], ["staff", "list", "--server", url, "--token", admin],
        ]
        for args in lines {
            let r = try CLIRunner.run(args, server: Self.nowhere, token: nil)
            #expect(r.status == 0, "\(args): \(r.stderr)")
        }
        // --token wins over HYPONATRACK_TOKEN.
        #expect(try CLIRunner.run(["patients", "--token", admin], server: url, token: "hts_wrong").status == 0)
        let twice = try CLIRunner.run(["--server", url, "patients", "--server", url], server: url, token: admin)
        #expect(twice.status == 64 && twice.stderr.contains("--server given twice"), "\(twice.stderr)")
    }

    @Test func aTokenFileGivesTheTokenWithoutItAppearingOnTheCommandLine() throws {
        let d = try TestDaemon()
        let path = try Self.tokenFile(d.adminToken + "\n")
        for args in [["--token-file", path, "staff", "list"], ["staff", "list", "--token-file", path],
                     ["--token-file=\(path)", "sync", "retry", "--json"]] {
            let r = try CLIRunner.run(args, server: d.baseURL, token: "hts_wrong")   // the file wins over the environment
            #expect(r.status == (args.contains("sync") ? 1 : 0), "\(args): \(r.stderr)")   // sync: refused, not configured
            #expect(!r.stderr.contains("no staff token") && !r.stderr.contains("invalid"), "\(args): \(r.stderr)")
        }
        let ro = try Self.tokenFile(d.adminToken, mode: 0o400)
        #expect(try CLIRunner.run(["patients", "--token-file", ro], server: d.baseURL, token: nil).status == 0)
    }

    @Test func aTokenFileReadableByOthersOrUnreadableOrCombinedWithTokenIsAUsageError() throws {
        let d = try TestDaemon()
        let open = try Self.tokenFile(d.adminToken, mode: 0o644)
        let refused = try CLIRunner.run(["patients", "--token-file", open], server: d.baseURL, token: nil)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--token-file \(open) is open to group or others (mode 644)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("chmod 600 \(open)"))
        #expect(!refused.stderr.contains(d.adminToken))
        let missing = try CLIRunner.run(["patients", "--token-file", open + ".missing"], server: d.baseURL, token: nil)
        #expect(missing.status == 64 && missing.stderr.contains("cannot open it"), "\(missing.stderr)")
        let good = try Self.tokenFile(d.adminToken)
        let both = try CLIRunner.run(["--token", d.adminToken, "patients", "--token-file", good], server: d.baseURL, token: nil)
        #expect(both.status == 64 && both.stderr.contains("--token and --token-file exclude each other"), "\(both.stderr)")
    }

    /// Every command line of the synopsis; the unit tests check the CLI's own registry has no other.
    static let commandLines = [
        "enroll", "update", "reissue", "lab", "item", "patients", "show", "alerts", "ack", "resolve", "staff", "staff add",
        "staff list", "staff revoke", "audit", "audit verify", "audit checkpoint", "audit list", "hooks", "hooks status", "sync", "sync status",
        "sync retry", "sync resume", "sync check", "sync reconcile", "sync export-all", "backup", "report", "evaluate", "version",
    ]

    @Test func helpAtEveryLevelPrintsThatLevelsUsageAndExitsZeroEvenWithRequiredArgumentsMissing() throws {
        for line in Self.commandLines {
            let words = line.split(separator: " ").map(String.init)
            for args in [words + ["-h"], words + ["--help"], ["--help"] + words] {
                let r = try CLIRunner.run(args, server: Self.nowhere, token: nil)
                #expect(r.status == 0, "\(args): \(r.stderr)")
                #expect(r.stdout.hasPrefix("Usage: hyponatrack \(line)"), "\(args): \(r.stdout)")
                #expect(r.stderr.isEmpty, "\(args): \(r.stderr)")
            }
        }
        for args in [["-h"], ["--help"], ["help"], ["help", "sync", "retry"]] {
            let r = try CLIRunner.run(args, server: Self.nowhere, token: nil)
            #expect(r.status == 0 && r.stdout.hasPrefix("Usage: hyponatrack"), "\(args)")
        }
        let top = try CLIRunner.run(["--help"], server: Self.nowhere, token: nil).stdout
        #expect(top.contains("--token-file PATH") && top.contains("else the HYPONATRACK_TOKEN environment variable"))
    }

    @Test func syncRetryResumeAndExportAllPrintTheServersAnswerWithJSON() throws {
        let rig = try SyncRig()
        try REDCapSyncTests.enroll(rig, "CLI-SYNC-1")
        try rig.waitUntilDrained()
        let exported = try Self.object(try rig.cli(["export-all", "--json"]), "sync export-all")
        guard case .number(let queued)? = exported["queued"] else { throw TestFailure("export-all --json: \(exported)") }
        #expect(queued >= 1)
        let retried = try Self.object(try rig.cli(["retry", "--dead", "--json"]), "sync retry")
        #expect(retried["dead"] == true && retried["rows"] != nil, "\(retried)")
        let resumed = try Self.object(try rig.cli(["resume", "--json"]), "sync resume")
        #expect(resumed["halted"] == false && resumed["pending"] != nil, "\(resumed)")
        #expect(try Self.object(try rig.cli(["check", "--json"]), "sync check")["ok"] == true)
        #expect(try Self.object(try rig.cli(["status", "--json"]), "sync status")["halted"] == false)
        _ = try Self.object(try rig.cli(["reconcile", "--json"]), "sync reconcile")
        // Without --json: the sentences, not the JSON.
        let human = try rig.cli(["export-all"])
        #expect(human.status == 0 && human.stdout.hasSuffix("rows queued for REDCap.\n"), "\(human.stdout)")
        #expect(try rig.cli(["retry"]).stdout.contains("rows will be sent again now."))
    }

    @Test func everyOtherStaffCommandPrintsTheServersAnswerWithJSON() throws {
        let d = try TestDaemon()
        func cli(_ args: [String]) throws -> CLIRunner.Result {
            try CLIRunner.run(args + ["--json"], server: d.baseURL, token: d.adminToken)
        }
        func object(_ args: [String]) throws -> JSONObject { try Self.object(try cli(args), args.joined(separator: " ")) }
        func list(_ args: [String]) throws -> [JSONValue] {
            guard case .array(let items) = try Self.json(try cli(args), args.joined(separator: " ")) else {
                throw TestFailure("\(args) --json is not an array")
            }
            return items
        }
        let enrolled = try object(["enroll", "--study-id", "CLI-J", "--surgery-date", Study.date(-5), "--age", "60", "--sex", "male",
                                   "--bmi", "26", "--baseline-weight", "80", "--time-zone", "Europe/Berlin"])
        #expect(enrolled["activationCode"] != nil)
        #expect(try object(["update", "CLI-J", "--pod-sodium", "135"])["studyId"] == "CLI-J")
        let reissued = try object(["reissue", "CLI-J"])["activationCode"]
        let activated = try d.request(.post, "/v1/activate", body: ["studyId": "CLI-J", "code": try #require(reissued)])
        guard case .string(let patient)? = activated["token"] else { throw TestFailure("activation: \(activated.text)") }
        let day = Study.date(-1)
        let put = try d.request(.put, "/v1/me/days/\(day)", token: patient, body: ["symptoms": [Study.symptom("s-1", day)]])
        #expect(put.status == 200, "\(put.text)")
        #expect(try object(["item", "CLI-J", "--date", day, "--list", "symptoms", "--delete", "s-1", "--reason", "wrong"])["deleted"] == true)
        guard case .number(let labId)? = try object(["lab", "CLI-J", "--sodium", "129"])["labId"] else { throw TestFailure("lab --json") }
        var open: Double?
        try waitUntil {      // Na 129 is red: an alert opens
            if case .object(let alert)? = try list(["alerts", "--open"]).first, case .number(let id)? = alert["id"] { open = id }
            return open != nil
        }
        let alertId = String(Int(try #require(open)))
        #expect(try object(["ack", alertId, "--note", "called"])["state"] == "acknowledged")
        #expect(try object(["resolve", alertId, "--note", "recheck", "--sodium", "134"])["state"] == "resolved")
        #expect(try object(["lab", "CLI-J", "--delete", String(Int(labId)), "--reason", "wrong tube"])["deleted"] == true)
        #expect(try list(["patients"]).count == 1)
        #expect(try object(["show", "CLI-J"])["studyId"] == "CLI-J")
        #expect(try object(["staff", "add", "nurse.j", "--role", "nurse"])["role"] == "nurse")
        #expect(try list(["staff", "list"]).count == 2)
        _ = try object(["staff", "revoke", "nurse.j"])
        #expect(try object(["audit", "verify"])["intact"] == true)
        #expect(try list(["audit", "list", "--limit", "5"]).count == 5)
        #expect(try list(["hooks", "status"]).isEmpty)
        #expect(try object(["backup"])["path"] != nil)
        #expect(try object(["update", "CLI-J", "--withdraw", "--reason", "moved away"])["withdrawn"] == true)
        let unconfigured = try cli(["sync", "retry"])      // no redcap block: the server refuses, nothing on stdout
        #expect(unconfigured.status == 1 && unconfigured.stdout.isEmpty && unconfigured.stderr.contains("not configured"))
    }

    @Test func commandsWithoutAJSONFormRefuseJSONAndUnknownOptionsAreNamed() throws {
        let cases: [([String], String)] = [
            (["version", "--json"], "--json"), (["evaluate", "Tests/Fixtures/public-vignettes.json", "--json"], "--json"),
            (["patients", "--bogus"], "unknown option --bogus"), (["--bogus", "patients"], "unknown option --bogus"),
            (["sync", "retry", "--frob=1"], "unknown option --frob"), (["staff", "list", "-x"], "unknown option -x"),
            (["sync", "frobnicate"], "unknown subcommand \"frobnicate\""),
        ]
        for (args, message) in cases {
            let r = try CLIRunner.run(args, server: Self.nowhere, token: "hts_x")
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
            #expect(r.stdout.isEmpty, "\(args)")
        }
    }

    /// The CLI leaves `timeZone` out (unit test: CLIConventionsTests.enrolmentWithoutTimeZoneLeavesItToTheServer)
    /// and the daemon fills in its `defaultTimeZone` (Europe/Berlin here; another default is
    /// tested in process: InProcessAPITests.anEnrolmentWithoutATimeZoneTakesTheConfiguredDefault).
    @Test
    func enrolmentWithoutTimeZoneGetsTheDaemonsDefaultTimeZone() throws {
        let d = try TestDaemon()
        let enrolled = try CLIRunner.run(["enroll", "--study-id", "CLI-TZ", "--surgery-date", Study.date(-5), "--age", "60",
                                          "--sex", "male", "--bmi", "26", "--baseline-weight", "80"], server: d.baseURL, token: d.adminToken)
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        let show = try Self.object(try CLIRunner.run(["show", "CLI-TZ", "--json"], server: d.baseURL, token: d.adminToken), "show")
        guard case .object(let profile)? = show["profile"] else { throw TestFailure("show --json: no profile") }
        #expect(profile["timeZone"] == "Europe/Berlin")
    }

    /// Runs the CLI with its standard output set to `stdout`; its status and standard error.
    static func run(_ args: [String], stdout: FileHandle, env: [String: String]) throws -> (status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Repo.cli)
        p.arguments = args
        p.environment = env
        let err = Pipe()
        p.standardOutput = stdout
        p.standardError = err
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        return (ChildExit.wait(p), String(decoding: e, as: UTF8.self))
    }

    /// `hyponatrack patients | head -1`: the reader goes away; the CLI ends as SIGPIPE would
    /// (141), not with a crash (Foundation's FileHandle.write traps on EPIPE once libcurl has
    /// set SIGPIPE to be ignored).
    @Test func aReaderThatGoesAwayEndsTheCLIWithoutACrash() throws {
        let d = try TestDaemon()
        var env = ProcessInfo.processInfo.environment
        env["HYPONATRACK_SERVER"] = d.baseURL
        env["HYPONATRACK_TOKEN"] = d.adminToken
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let r = try Self.run(["patients"], stdout: pipe.fileHandleForWriting, env: env)
        #expect(r.status == 141, "\(r.stderr)")
        #expect(!r.stderr.contains("Fatal error"), "\(r.stderr)")
    }

    /// Output to a full disk: a message on stderr and status 1, not a crash.
    @Test func outputThatCannotBeWrittenIsReportedWithStatusOne() throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let r = try Self.run(["--help"], stdout: full, env: ProcessInfo.processInfo.environment)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("cannot write the output: No space left on device"), "\(r.stderr)")
    }
}
