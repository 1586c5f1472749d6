import Foundation
import Dispatch
import HTJSON
import HTTPServer
import HyponaTrackCore
import HyponaTrackKit
import HyponaTrackDomain
import HyponaTrackConfigFile
import HyponaTrackWeb

/// The running daemon: the application (configuration, rules, database, services, routes) and
/// the HTTP server that listens for it; started in that order and stopped in reverse (graceful:
/// in-flight requests finish) on SIGTERM/SIGINT. SIGHUP reloads the rule files, keeping the old
/// ones when the new are invalid. Under systemd it reports readiness, reloads, stops, its status
/// and (with a watchdog) its liveness.
public final class Daemon: Sendable {
    /// Everything but the listener (in-process tests build this alone).
    public let application: Application
    public let server: HTTPServer
    let httpService: HTTPServerService
    /// Started by `startWorkers()` in this order, stopped by `stop()` in reverse: hook
    /// delivery, REDCap sync, scheduler, refusal summaries, HTTP (so the last summaries are
    /// written after the last request).
    let services: ServiceGroup
    /// What systemd is told; its liveness loop runs in a group of its own (when systemd
    /// listens), started after `services` (by `notifyReady()`) and stopped before them.
    let supervision: SystemdSupervision
    let supervisionGroup: ServiceGroup
    /// The address the server listens on (with the real port when 0 was asked for).
    public let address: String

    public var configuration: ServerConfiguration { application.configuration }
    public var database: Database { application.database }
    public var rules: ActiveRules { application.rules }
    public var service: StudyService { application.service }
    public var logger: Logger { application.logger }

    public init(configuration: ServerConfiguration, logger: Logger, clock: any ServerClock = SystemClock()) throws {
        let application = try Application(configuration: configuration, logger: logger, clock: clock)
        self.application = application
        var http = HTTPServerConfiguration()
        http.host = configuration.listenHost
        http.port = UInt16(configuration.listenPort)
        http.handlerThreads = configuration.http.threads
        http.connectionLimit = configuration.http.maxConnections
        http.perIPConnectionLimit = configuration.http.maxConnectionsPerIP
        http.perIPExempt = Set(configuration.trustedProxies)
        http.headerTimeoutSeconds = configuration.http.headerTimeoutSeconds
        http.bodyTimeoutSeconds = configuration.http.bodyTimeoutSeconds
        http.connectionTimeoutSeconds = configuration.http.timeoutSeconds
        http.runsOnPollingThread = { request in application.runsOnPollingThread(request) }
        http.refusalResponse = { refusal in application.page(for: refusal) }
        // Import uploads (up to imports.maxUploadBytes) go to DATA_DIR/spool/; a crash may have left some behind.
        let spool = configuration.spoolDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: spool.path)) ?? [] where name.hasPrefix("upload-") {
            try? FileManager.default.removeItem(at: spool.appendingPathComponent(name))
        }
        let router = application.router
        http.spool = UploadSpool(directory: spool.path, maxBytes: configuration.imports.maxUploadBytes) { method, path, headers in
            router.spoolDecision(method: method, path: path, headers: headers)
        }
        do {
            server = try HTTPServer(configuration: http, diagnostics: { message in
                logger.warning("http server", ["detail": message])
            }, handler: { request, responder in application.handle(request, responder) })
        } catch {
            application.close()
            throw DaemonError("cannot listen on \(configuration.listenHost):\(configuration.listenPort): \(error)")
        }
        let httpService = HTTPServerService(server: server)
        self.httpService = httpService
        let services = ServiceGroup(application.workers + [httpService], logger: logger)
        self.services = services
        let host = configuration.listenHost.contains(":") ? "[\(configuration.listenHost)]" : configuration.listenHost
        address = "\(host):\(server.boundPort)"
        let probe = LivenessProbe(database: application.database, services: services, syncEnabled: application.domain.sync != nil,
                                  clock: clock)
        supervision = .fromEnvironment(serving: "serving on \(address)", logger: logger) { probe.check(write: $0) }
        supervisionGroup = ServiceGroup(supervision.isSupervised ? [supervision] : [], logger: logger)
    }

    /// Starts the background services (hook delivery, REDCap sync, scheduler, and the HTTP
    /// server's stop handling). Called once the API listens.
    public func startWorkers() {
        services.start()
    }

    /// Tells systemd the daemon is ready (`READY=1`, `STATUS=`) and starts the liveness loop
    /// (watchdog, status); after `startWorkers()`.
    public func notifyReady() {
        supervision.ready()
        supervisionGroup.start()
    }

    /// Graceful stop: refuse new connections, let in-flight requests finish, stop the other
    /// services (each within its deadline), close the database.
    public func stop() {
        supervision.stopping()
        logger.notice("stopping", ["in_flight": String(server.inFlightRequests)])
        supervisionGroup.stop()
        services.stop()
        // The server listens from init on: when the services never started, stop it here.
        let finished = httpService.inFlightFinished ?? server.stop(timeout: .seconds(20))
        application.close()
        logger.notice("stopped", ["in_flight_finished": String(finished)])
    }

    /// SIGHUP: `log.level` from the configuration file, then the rule files, reloaded and
    /// validated; invalid files are refused and the old kept, and so are rule files that lack a
    /// code an active patient carries (`StoredProfileCodes`). Nothing else in hyponatrack.json
    /// changes without a restart. systemd is told a reload runs (`RELOADING=1`) and, either way,
    /// that it is over (`READY=1`).
    public func reload() {
        supervision.reloading()
        defer { supervision.reloaded() }
        reloadLogLevel()
        application.reloadRules()
    }

    /// The configuration file's `log.level`; a file that no longer reads keeps the level in force.
    func reloadLogLevel() {
        guard let file = configuration.configFile else { return }
        let level: Logger.Level
        do { level = try ServerConfiguration.load(file: file).log.level } catch {
            logger.error("configuration reload refused; the log level stays", ["error": error.description,
                                                                                "log_level": logger.minimum.name])
            return
        }
        let previous = logger.minimum
        guard level != previous else { return }
        logger.setMinimum(level)
        // At notice, or at warning when that is the new level: the change is always written.
        logger.log(max(level, .notice), "log level changed", ["from": previous.name, "to": level.name])
    }
}
