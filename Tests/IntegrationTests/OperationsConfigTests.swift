import Foundation
import Testing

/// What a start refuses, it refuses as `--check-config` does: exit 78 (EX_CONFIG) naming the file
/// and the key, so systemd does not restart it (RestartPreventExitStatus=78). `log.level` is
/// read at start and again on SIGHUP.
@Suite struct OperationsConfigTests {
    /// The start's failure text (`TestDaemon` quotes the status and the log), or "" if it started.
    static func startFailure(_ dir: ConfigDirectory, dataDir: URL? = nil) -> String {
        do { let d = try TestDaemon(dataDir: dataDir, configFile: dir.serverFile); d.stop(); return "" } catch { return "\(error)" }
    }

    /// `--check-config` and a start of the same configuration both exit 78 naming `key`.
    static func refusedByCheckAndStart(_ dir: ConfigDirectory, dataDir: URL, naming key: String) throws {
        let check = try CheckConfigTests.check(dir, ["--data-dir", dataDir.path])
        #expect(check.status == 78, "\(check.stderr)")
        #expect(check.stderr.contains(key), "\(check.stderr)")
        let start = startFailure(dir, dataDir: dataDir)
        #expect(start.contains("exited at start (status 78)"), "\(start)")
        #expect(start.contains(key), "\(start)")
    }

    static func scratch(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    @Test func aBackupDirectoryInsideTheDataDirectoryIsRefusedNamingTheKey() throws {
        let dataDir = Self.scratch("ops-data")
        let dir = try ConfigDirectory(server: #"{"backup": {"directory": "\#(dataDir.path)/backups"}}"#)
        try Self.refusedByCheckAndStart(dir, dataDir: dataDir, naming: "backup.directory: \(dataDir.path)/backups is inside the data directory")
        // The data directory itself is inside it too.
        let same = try ConfigDirectory(server: #"{"backup": {"directory": "\#(dataDir.path)"}}"#)
        try Self.refusedByCheckAndStart(same, dataDir: dataDir, naming: "backup.directory:")
        // Elsewhere it is fine.
        let elsewhere = Self.scratch("ops-backups")
        let fine = try ConfigDirectory(server: #"{"backup": {"directory": "\#(elsewhere.path)"}}"#)
        let check = try CheckConfigTests.check(fine, ["--data-dir", dataDir.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("; sync off; backups every 60 min into \(elsewhere.path)"), "\(check.stdout)")
    }

    @Test func keepHourlyZeroIsRefusedNamingTheKey() throws {
        let dir = try ConfigDirectory(server: #"{"backup": {"directory": "\#(Self.scratch("ops-backups").path)", "keepHourly": 0}}"#)
        try Self.refusedByCheckAndStart(dir, dataDir: Self.scratch("ops-data"), naming: "backup.keepHourly")
    }

    @Test func anUnknownLogLevelIsRefusedNamingTheKey() throws {
        let dir = try ConfigDirectory(server: #"{"log": {"level": "verbose"}}"#)
        try Self.refusedByCheckAndStart(dir, dataDir: Self.scratch("ops-data"), naming: "log.level: ")
        let check = try CheckConfigTests.check(dir)
        #expect(check.stderr.contains("log.level: \"verbose\" is not one of debug, info, notice, warning"), "\(check.stderr)")
    }

    @Test func aStartWithAnInvalidRuleFileExits78NamingItsPathAndKey() throws {
        let dir = try ConfigDirectory()
        let thresholds = try dir.breakThresholds()
        try Self.refusedByCheckAndStart(dir, dataDir: Self.scratch("ops-data"), naming: "\(thresholds.path): scaled.weight_gain_pct.yellow")
    }

    @Test func aStartWithAHookSecretOthersCanReadExits78NamingIt() throws {
        let dir = try ConfigDirectory(server: CheckConfigTests.hooks)
        try dir.write("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", to: "ward.secret", mode: 0o644)
        try Self.refusedByCheckAndStart(dir, dataDir: Self.scratch("ops-data"), naming: "hook ward secretFile")
        let start = Self.startFailure(dir)
        #expect(!start.contains("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), "the secret is never quoted")
    }

    @Test func aREDCapTokenThatIsNoTokenExits78AtStart() throws {
        let dir = try ConfigDirectory(server: #"{"redcap": {"url": "https://redcap.example.org/api/", "tokenFile": "redcap-token"}}"#)
        try dir.write("not-a-token", to: "redcap-token", mode: 0o600)
        try Self.refusedByCheckAndStart(dir, dataDir: Self.scratch("ops-data"), naming: "a REDCap API token is 32 upper-case hexadecimal characters")
    }

    @Test func atDebugEachSchedulerPassIsLoggedWithItsDuration() throws {
        let dir = try ConfigDirectory(server: #"{"log": {"level": "debug"}}"#)
        let d = try TestDaemon(configFile: dir.serverFile)
        defer { d.stop() }
        #expect(poll(timeout: 10) { d.log.contains("level=debug msg=\"scheduler tick\" duration_ms=") }, "\(d.log)")
    }

    @Test func theLogLevelHidesLinesBelowItAndSIGHUPReloadsIt() throws {
        let dir = try ConfigDirectory(server: #"{"log": {"level": "warning"}}"#)
        let d = try TestDaemon(configFile: dir.serverFile)
        defer { d.stop() }
        try d.request(.get, "/healthz")
        #expect(!d.log.contains("level=info") && !d.log.contains("level=notice"), "\(d.log)")
        try dir.write(#"{"log": {"level": "info"}}"#, to: "hyponatrack.json")
        d.signal(SIGHUP)
        #expect(poll(timeout: 10) { d.log.contains("level=notice msg=\"log level changed\" from=warning to=info") }, "\(d.log)")
        try d.request(.get, "/healthz")
        #expect(poll(timeout: 10) { d.log.contains("level=info msg=request") }, "\(d.log)")
        #expect(!d.log.contains("level=debug"))
        // A file that no longer reads keeps the level in force.
        try dir.write(#"{"log": {"level": "loud"}}"#, to: "hyponatrack.json")
        d.signal(SIGHUP)
        #expect(poll(timeout: 10) { d.log.contains("configuration reload refused; the log level stays") }, "\(d.log)")
    }
}
