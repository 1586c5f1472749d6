import Foundation
import Testing

/// `hyponatrackd --check-config`: validates and exits, like `nginx -t` — 0 and a summary, or 78
/// (EX_CONFIG) naming the file and the key; never creates or writes the database (an existing
/// one is read for the stored profiles' codes: StoredProfileCodeTests) or binds the port.
@Suite struct CheckConfigTests {
    static func check(_ dir: ConfigDirectory, _ extra: [String] = [], environment: [String: String] = [:]) throws -> CLIRunner.Result {
        let env = ProcessInfo.processInfo.environment.filter { !["CREDENTIALS_DIRECTORY", "HYPONATRACK_REDCAP_TOKEN"].contains($0.key) }
        return try CLIRunner.run(Repo.daemon, ["--check-config", "--config", dir.serverFile.path] + extra,
                                 environment: env.merging(environment) { $1 })
    }

    static let hooks = """
        {"hooks": [{"name": "ward", "type": "webhook", "url": "https://ward.example.org/events", "secretFile": "ward.secret"},
                   {"name": "pager", "type": "command", "path": "/bin/true"}],
         "escalation": {"red": [{"afterMinutes": 0, "hooks": ["ward", "pager"]}]}}
        """

    @Test func aValidConfigurationIsSummarisedInOneLineWithoutOpeningTheDatabaseOrThePort() throws {
        let dir = try ConfigDirectory()
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("never-\(UUID().uuidString)")
        // The configured port is taken: a check that tried to listen would fail.
        let port = try TestDaemon.freePort()
        let taken = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(taken) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(taken, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0 && listen(taken, 1) == 0)
        let r = try Self.check(dir, ["--listen", "127.0.0.1:\(port)", "--data-dir", dataDir.path])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 1, "\(r.stdout)")
        #expect(r.stdout.contains("\(dir.serverFile.path): ok; rules version "))
        #expect(r.stdout.contains("; no hooks; escalation not configured (alerts reach nobody); sync off"), "\(r.stdout)")
        #expect(!FileManager.default.fileExists(atPath: dataDir.path), "the check created the data directory")
    }

    @Test func hooksAndEscalationAreNamedAndAnExposedSecretIsRefused() throws {
        let dir = try ConfigDirectory(server: Self.hooks)
        try dir.write("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", to: "ward.secret", mode: 0o644)
        let exposed = try Self.check(dir)
        #expect(exposed.status == 78)
        #expect(exposed.stderr.contains("\(dir.serverFile.path): hook ward secretFile: \(dir.file("ward.secret").path) must be readable by its owner only"),
                "\(exposed.stderr)")
        #expect(chmod(dir.file("ward.secret").path, 0o600) == 0)
        let r = try Self.check(dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("; 2 hooks (ward, pager); escalation configured; sync off"), "\(r.stdout)")
    }

    @Test func anInvalidRuleFileIsRefusedNamingItsPathAndKey() throws {
        let dir = try ConfigDirectory()
        let thresholds = try dir.breakThresholds()
        let r = try Self.check(dir)
        #expect(r.status == 78)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("invalid configuration: \(thresholds.path): scaled.weight_gain_pct.yellow: "), "\(r.stderr)")
    }

    @Test func anUnknownServerKeyIsRefusedNamingIt() throws {
        let dir = try ConfigDirectory(server: #"{"trustedProxys": []}"#)
        let r = try Self.check(dir)
        #expect(r.status == 78)
        #expect(r.stderr.contains("\(dir.serverFile.path): trustedProxys"), "\(r.stderr)")
    }

    @Test func theOldPerIPKeyIsRefusedNamingItsSuccessor() throws {
        let dir = try ConfigDirectory(server: #"{"http": {"perIPConnections": 8}}"#)
        let r = try Self.check(dir)
        #expect(r.status == 78)
        #expect(r.stderr.contains("http.perIPConnections: is now http.maxConnectionsPerIP"), "\(r.stderr)")
    }

    @Test func theREDCapTokenIsCheckedWhereverItComesFrom() throws {
        let redcap = #"{"redcap": {"url": "https://redcap.example.org/api/"}}"#
        let dir = try ConfigDirectory(server: redcap)
        // Left to systemd's LoadCredential=, which a check by hand does not have: said, not failed.
        let byHand = try Self.check(dir)
        #expect(byHand.status == 0, "\(byHand.stderr)")
        #expect(byHand.stdout.contains("sync on (https://redcap.example.org/api/; token not checked"), "\(byHand.stdout)")
        // Under systemd (ExecStartPre=): the credential is there and checked.
        let credentials = try ConfigDirectory(server: "{}")
        try credentials.write("not-a-token", to: "redcap-token", mode: 0o400)
        let bad = try Self.check(dir, environment: ["CREDENTIALS_DIRECTORY": credentials.url.path])
        #expect(bad.status == 78)
        #expect(bad.stderr.contains("$CREDENTIALS_DIRECTORY/redcap-token: a REDCap API token is 32 upper-case hexadecimal characters"),
                "\(bad.stderr)")
        try credentials.write("0123456789ABCDEF0123456789ABCDEF", to: "redcap-token")
        let good = try Self.check(dir, environment: ["CREDENTIALS_DIRECTORY": credentials.url.path])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.hasSuffix("; sync on (https://redcap.example.org/api/)\n"), "\(good.stdout)")
    }

    @Test func helpMentionsTheCheck() throws {
        let r = try CLIRunner.run(Repo.daemon, ["--help"])
        #expect(r.status == 0 && r.stdout.contains("hyponatrackd --check-config [--config FILE]"))
    }
}
