import Foundation
import Dispatch
import Synchronization
import Crypto
import HTTPServer
import HyponaTrackKit
import HyponaTrackDomain
import HyponaTrackConfigFile
import HyponaTrackWeb

/// `hyponatrackd [--config FILE] [--listen HOST:PORT] [--data-dir DIR]`, `hyponatrackd --check-config`,
/// `hyponatrackd --data-dir DIR --new-admin-token FILE`.
public enum DaemonMain {
    static let help = """
        Usage: hyponatrackd [--config FILE] [--listen HOST:PORT] [--data-dir DIR]
               hyponatrackd --check-config [--config FILE]
               hyponatrackd [--config FILE] --data-dir DIR --new-admin-token FILE

        The HyponaTrack Server daemon: the patient and staff HTTP API over an embedded SQLite
        database. Defaults: config/hyponatrack.json of the installation, listen 127.0.0.1:8750.
        Signals: SIGTERM/SIGINT stop gracefully; SIGHUP reloads and validates the rule files.
        On a new database it writes a bootstrap admin token to DATA_DIR/admin.token (mode 0600).

        --check-config  validate the configuration, the rule files and the secret files it
                        names, and the stored profiles' codes against the rules (an existing
                        database, read-only), print a one-line summary and exit (0 valid,
                        78 invalid) without writing the database or listening. Run it as the
                        service's user.
        --new-admin-token FILE
                        offline admin recovery: with no daemon running on the data directory
                        (else exit 75), create the admin recovery-admin-TIMESTAMP and write its
                        token to the new file FILE (0600); the next start audits it.

        Exit codes: 0 stopped cleanly, 1 failed, 64 bad command line, 75 the data directory is
        held by another hyponatrackd, 78 invalid configuration (rules, secrets, keys).

        Not a validated medical device; the clinical rules are defaults derived from published
        evidence, not a validated clinical rule.
        """

    public static func run(_ arguments: [String]) -> Int32 {
        var configPath: String?, listen: String?, dataDir: String?, checkOnly = false, newAdminToken: String?
        var i = 0
        while i < arguments.count {
            let arg = arguments[i]
            func value() -> String? { i + 1 < arguments.count ? arguments[i + 1] : nil }
            switch arg {
            case "--help", "-h": print(help); return 0
            case "--version": print("hyponatrackd \(HyponaTrackVersion.string)"); return 0
            case "--check-config": checkOnly = true; i += 1; continue
            case "--config", "--listen", "--data-dir", "--new-admin-token":
                guard let v = value() else { printError("hyponatrackd: \(arg) needs a value\n"); return 64 }
                switch arg {
                case "--config": configPath = v
                case "--listen": listen = v
                case "--data-dir": dataDir = v
                default: newAdminToken = v
                }
                i += 2
                continue
            default:
                printError("hyponatrackd: unknown argument \(arg)\n\n\(help)\n")
                return 64
            }
        }
        if newAdminToken != nil, dataDir == nil || checkOnly || listen != nil {
            printError("hyponatrackd: --new-admin-token needs --data-dir (and takes neither --listen nor --check-config)\n")
            return 64
        }
        Crypto.initialize()
        HTTPServer.ignoreSIGPIPE()
        let logger = Logger()
        var configuration: ServerConfiguration
        do {
            let file = configPath.map { URL(fileURLWithPath: $0) }
                ?? RulesLoader.defaultDirectory().appendingPathComponent("hyponatrack.json")
            configuration = try ServerConfiguration.load(file: file)
        } catch {
            if checkOnly { printError("hyponatrackd: invalid configuration: \(error)\n"); return 78 }
            logger.error("invalid configuration", ["error": "\(error)"])
            return 78
        }
        if let listen {
            guard let (host, port) = ServerConfiguration.parseListen(listen) else {
                printError("hyponatrackd: --listen expects HOST:PORT\n")
                return 64
            }
            configuration.listenHost = host
            configuration.listenPort = port
        }
        if let dataDir { configuration.dataDirectory = URL(fileURLWithPath: dataDir).standardizedFileURL }
        if checkOnly { return checkConfig(configuration) }
        logger.setMinimum(configuration.log.level)
        // Held until the process ends: no second daemon, no offline recovery beside this one.
        let lock: DataDirectoryLock
        do { lock = try DataDirectoryLock.acquire(configuration.dataDirectory) } catch {
            if newAdminToken != nil { printError("hyponatrackd: \(error)\n") } else { logger.error("cannot start", ["error": "\(error)"]) }
            if case .held = error { return 75 }
            return 1
        }
        if let newAdminToken { return recoverAdmin(configuration, tokenFile: newAdminToken) }

        // Signals are handled on a queue, not in a C handler: only async-signal-safe work there.
        // A parent may have started us with them blocked (Foundation's Process on a libdispatch
        // thread passes its mask on); unblock them or a stop request would never arrive. They are
        // taken before the daemon binds its port: the listener answers as soon as it exists, so a
        // SIGHUP or SIGTERM sent on the first answer must already have its handler (a reload asked
        // for during the start runs once the daemon is there).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for s in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&unblock, s); signal(s, SIG_IGN) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        let queue = DispatchQueue(label: "hyponatrackd.signals")
        let stopRequested = DispatchSemaphore(value: 0)
        let starting = StartingDaemon()
        var sources: [DispatchSourceSignal] = []
        for s in [SIGTERM, SIGINT] {
            let source = DispatchSource.makeSignalSource(signal: s, queue: queue)
            source.setEventHandler { stopRequested.signal() }
            source.resume()
            sources.append(source)
        }
        let hup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        hup.setEventHandler { starting.reloadWhenStarted() }
        hup.resume()
        sources.append(hup)

        let daemon: Daemon
        let started = Date()
        do { daemon = try Daemon(configuration: configuration, logger: logger) } catch {
            // A configuration that cannot be used is EX_CONFIG, as --check-config says: systemd
            // does not restart it (RestartPreventExitStatus=78).
            if let error = error as? DaemonError, error.isConfiguration {
                logger.error("invalid configuration", ["error": error.description])
                return 78
            }
            logger.error("cannot start", ["error": "\(error)"])
            return 1
        }
        starting.started(daemon)

        daemon.startWorkers()
        logger.notice("ready", ["address": daemon.address, "data_dir": configuration.dataDirectory.path,
                                "rules_version": daemon.rules.snapshot.rules.version, "version": HyponaTrackVersion.string,
                                "start_ms": String(format: "%.1f", Date().timeIntervalSince(started) * 1000)])
        daemon.notifyReady()
        stopRequested.wait()
        daemon.stop()
        withExtendedLifetime((sources, lock)) {}
        return 0
    }

    /// `--new-admin-token FILE` (the data directory's lock is held): 0 and the member's name, or
    /// the problem on stderr and 1.
    static func recoverAdmin(_ configuration: ServerConfiguration, tokenFile: String) -> Int32 {
        do {
            let name = try AdminRecovery.run(dataDirectory: configuration.dataDirectory, tokenFile: tokenFile,
                                             now: Date().timeIntervalSince1970)
            print("hyponatrackd: created admin \(name); token written to \(tokenFile); the next start audits it (staff.recover)")
            return 0
        } catch {
            printError("hyponatrackd: admin recovery failed: \(error)\n")
            return 1
        }
    }

    /// `--check-config`: the summary on stdout and 0, or the problem on stderr and 78 (EX_CONFIG).
    static func checkConfig(_ configuration: ServerConfiguration) -> Int32 {
        do {
            print("hyponatrackd: \(try ConfigCheck.run(configuration).line)")
            return 0
        } catch {
            printError("hyponatrackd: invalid configuration: \(error)\n")
            return 78
        }
    }
}

/// Writes a line to standard error (the C `stderr` global is not concurrency-safe to name in Swift 6);
/// a standard error that cannot take it loses the line (FileHandle.write(_:) would trap).
func printError(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

/// The daemon as the SIGHUP handler sees it while the start is under way: a reload asked for
/// before the daemon exists is remembered and run once it does (never lost, never run twice).
final class StartingDaemon: Sendable {
    private let state = Mutex<(daemon: Daemon?, reloadAsked: Bool)>((nil, false))

    func reloadWhenStarted() {
        let daemon = state.withLock { s -> Daemon? in
            if s.daemon == nil { s.reloadAsked = true }
            return s.daemon
        }
        daemon?.reload()
    }

    func started(_ daemon: Daemon) {
        let asked = state.withLock { s -> Bool in
            s.daemon = daemon
            defer { s.reloadAsked = false }
            return s.reloadAsked
        }
        if asked { daemon.reload() }
    }
}
