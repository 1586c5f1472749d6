import Foundation
import Dispatch
import HTJSON
import HTTPServer
import HyponaTrackCore
import HyponaTrackKit
import SQLite

/// The running daemon: configuration, rules, database, services, HTTP server; started in that
/// order and stopped in reverse (graceful: in-flight requests finish) on SIGTERM/SIGINT.
/// SIGHUP reloads the rule files, keeping the old ones when the new are invalid. Under systemd
/// it reports readiness, reloads, stops, its status and (with a watchdog) its liveness.
public final class Daemon: Sendable {
    public let configuration: ServerConfiguration
    public let database: Database
    public let rules: ActiveRules
    public let service: StudyService
    public let server: HTTPServer
    /// The API's request handler (the server's; in-process tests call it directly).
    public let api: APIHandler
    /// The browser console's pages (`/console/…`).
    public let web: WebHandler
    /// The web check-in's pages (`/app/`).
    public let appWeb: WebHandler
    public let logger: Logger
    let metrics: Metrics
    let sync: SyncService?
    let delivery: HookDelivery
    let scheduler: Scheduler
    /// Writes the refused activation attempts' summaries to the audit trail (every minute, at stop).
    let refusalSummaries: RefusalSummaries
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
    let clock: any ServerClock

    public init(configuration: ServerConfiguration, logger: Logger, clock: any ServerClock = SystemClock()) throws {
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
        let rules: ActiveRules
        do { rules = try ActiveRules(files: configuration.ruleFiles) } catch {
            throw DaemonError("invalid rules: \(error)")
        }
        self.rules = rules
        let auditKey = try AuditKeySource.load(configuration: configuration, logger: logger)
        database = try Database(directory: configuration.dataDirectory, auditKey: auditKey,
                                readers: Database.readerCount(handlerThreads: configuration.http.threads),
                                longReads: .longReads(handlerThreads: configuration.http.threads,
                                                      connections: Database.longReaderCount))
        if let rekey = database.auditRekey {
            // Expected once, at the first start of the release that keys the chain; anywhere else
            // it means the trail was turned back into the unkeyed form (docs/operations.md §8).
            logger.warning("audit chain verified under the legacy unkeyed scheme and re-keyed once under the audit key",
                           ["rows": String(rekey.rows), "old_head": rekey.oldHead.description, "key": database.auditKey.fingerprint])
        }
        // Before anyone is scored: no active patient may carry a code these rules do not know.
        do {
            try StoredProfileCodes.enforce(database, rules: rules.snapshot.rules, configuration: configuration, now: clock.now(),
                                           logger: logger)
        } catch {
            database.close()
            throw DaemonError("invalid rules: \(error)")
        }
        try Self.bootstrapAdmin(database, configuration: configuration, logger: logger, now: clock.now())
        let metrics = Metrics()
        self.metrics = metrics
        let transports = try HookTransports.make(configuration.hooks, rules: rules)
        let delivery = HookDelivery(database: database, transports: transports, logger: logger, clock: clock)
        self.delivery = delivery
        let syncMetrics = SyncMetrics()
        let hooks = configuration.hooks
        // sync.unhealthy / sync.halted go to the hooks that subscribe to them.
        let sync = try Self.makeSync(configuration: configuration, database: database, rules: rules, logger: logger,
                                     metrics: syncMetrics, clock: clock,
                                     events: SyncHookEvents(hooks: hooks, wake: { delivery.wake() }))
        self.sync = sync
        let alerting = Alerting(ladder: configuration.escalation, hooks: configuration.hooks) { patient in
            rules.snapshot.engine.risk.assess(patient.profile).riskClass.rawValue
        }
        let service = StudyService(database: database, rules: rules, clock: clock, configuration: configuration, metrics: metrics,
                                   outbox: sync?.outbox, alerting: alerting, hooksWake: { delivery.wake() })
        self.service = service
        let refusals = ActivationRefusals()
        scheduler = Scheduler(database: database, rules: rules, alerting: alerting, hooks: configuration.hooks, logger: logger,
                              interval: configuration.schedulerIntervalSeconds, clock: clock, checkpoints: service.audit.checkpoints,
                              onQueued: { delivery.wake() })
        let activation = ActivationService(database: database, clock: clock, configuration: configuration, rules: rules,
                                           outbox: sync?.outbox, refusals: refusals)
        refusalSummaries = RefusalSummaries(database: database, refusals: refusals, clock: clock, logger: logger)
        let anonymousLimit = AnonymousLimit(
            limiter: AnonymousRateLimiter(perMinute: configuration.limits.anonymousPerMinute, clock: clock),
            refused: { ip in refusals.record(ip: ip, .rateLimited) })
        let database = database
        let passwordChecks = AdmissionGate.passwordChecks()
        let syncEnabled = sync != nil
        let healthCheck = HealthCheck(database: database, rules: rules, clock: clock, syncEnabled: syncEnabled,
                                      escalation: configuration.escalation)
        let health: @Sendable () -> Health = { healthCheck.check() }
        if !healthCheck.escalationConfigured {
            logger.warning("no escalation tier is configured: alerts are stored and shown but reach nobody; add an escalation block (docs/operations.md)",
                           ["hooks": String(configuration.hooks.count)])
        }
        let routeBox = RoutesBox()
        let routes = Routes.patient(service, activation, anonymousLimit: anonymousLimit) + Routes.staff(service, activation)
            + Routes.sync(sync)
            + Routes.alerts(service.alerts, hooksStatus: { try database.read { db in try HookDelivery.status(db, hooks: hooks) } })
            + Routes.system(health: health, metrics: {
                metrics.render([.gauge("hyponatrack_database_pending_writes", "Write jobs queued for the next commit.",
                                       Double(database.writer.statistics.pendingJobs))] + refusals.families
                               + AdmissionMetrics.families(longReads: database.longReadAdmission, signIns: passwordChecks)
                               + (routeBox.server.map(HTTPMetrics.families) ?? []) + (syncEnabled ? syncMetrics.families : []))
            }, openAPI: { routeBox.document })
        routeBox.document = OpenAPIDocument.build(routes: routes)
        let handler = APIHandler(routes: routes, database: database, clock: clock, metrics: metrics, logger: logger,
                                 trustedProxies: configuration.trustedProxies,
                                 patientTokens: activation.tokenLifetime)
        api = handler
        let sessions = SessionService(transactions: Transactions(database: database, wakeSync: {}, wakeHooks: {}), clock: clock,
                                      lockout: activation.policy, passwordChecks: passwordChecks)
        let console = Console(study: service, sessions: sessions, sync: sync, hooks: {
            try database.read { db in try hooks.map { ($0, try HookOutboxRepository.summary(db, hook: $0.name)) } }
        }, signInLimit: anonymousLimit)
        let web = WebHandler(routes: console.routes(), sessions: sessions, trustedProxies: Set(configuration.trustedProxies),
                             metrics: metrics, logger: logger, signInPath: "/console/login", errorPage: console.errorPage)
        self.web = web
        let patientSessions = PatientWebSessions(database: database, clock: clock, lifetime: handler.patientTokens)
        let app = PatientApp(study: service, activation: activation, patients: patientSessions, activateLimit: anonymousLimit)
        let appWeb = WebHandler(routes: app.routes(), patients: patientSessions, trustedProxies: Set(configuration.trustedProxies),
                                metrics: metrics, logger: logger, signInPath: "/app/activate", errorPage: app.errorPage)
        self.appWeb = appWeb
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
        // The patient's day submission: planned where it arrived, answered from its commit.
        http.runsOnPollingThread = { request in Self.site(of: request.path) == .api && handler.runsOnPollingThread(&request) }
        // What the server answers before a handler runs is a page, with the page headers, on the pages' paths.
        http.refusalResponse = { refusal in
            switch Self.site(of: refusal.rawPath) {
            case .console: web.page(for: refusal)
            case .patientApp: appWeb.page(for: refusal)
            case .api: nil
            }
        }
        // Import uploads (up to imports.maxUploadBytes) go to DATA_DIR/spool/; a crash may have left some behind.
        let spool = configuration.spoolDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: spool.path)) ?? [] where name.hasPrefix("upload-") {
            try? FileManager.default.removeItem(at: spool.appendingPathComponent(name))
        }
        http.spool = UploadSpool(directory: spool.path, maxBytes: configuration.imports.maxUploadBytes) { method, path, headers in
            handler.spoolDecision(method: method, path: path, headers: headers)
        }
        do {
            server = try HTTPServer(configuration: http, diagnostics: { message in
                logger.warning("http server", ["detail": message])
            }, handler: { request, responder in
                // The console's pages, the patient app and the API share the one listener.
                switch Self.site(of: request.path) {
                case .console: web.handle(request, responder)
                case .patientApp: appWeb.handle(request, responder)
                case .api: handler.handle(request, responder)
                }
            })
        } catch {
            database.close()
            throw DaemonError("cannot listen on \(configuration.listenHost):\(configuration.listenPort): \(error)")
        }
        routeBox.server = server
        let httpService = HTTPServerService(server: server)
        self.httpService = httpService
        let workers: [any BackgroundService] = [delivery] + (sync.map { [$0.worker] } ?? []) + [scheduler, refusalSummaries, httpService]
        let services = ServiceGroup(workers, logger: logger)
        self.services = services
        let host = configuration.listenHost.contains(":") ? "[\(configuration.listenHost)]" : configuration.listenHost
        address = "\(host):\(server.boundPort)"
        let probe = LivenessProbe(database: database, services: services, syncEnabled: syncEnabled, clock: clock)
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

    /// Builds the REDCap sync when a `redcap` block is configured; refuses to start without a
    /// usable token.
    static func makeSync(configuration: ServerConfiguration, database: Database, rules: ActiveRules, logger: Logger,
                         metrics: SyncMetrics, clock: any ServerClock, events: SyncHookEvents) throws -> SyncService? {
        guard let rc = configuration.redcap else { return nil }
        if rc.maxRequestsPerMinute > 300 {
            logger.warning("redcap.maxRequestsPerMinute is above half of REDCap's default per-IP ban threshold (600/min, a permanent ban); other traffic from this IP counts too",
                           ["max_requests_per_minute": String(rc.maxRequestsPerMinute)])
        }
        let token = try REDCapToken.load(tokenFile: rc.tokenFile)
        guard let zone = ZoneRules(identifier: configuration.studyTimeZone) else { throw DaemonError("studyTimeZone is unknown") }
        let mapper = REDCapMapper(studyZone: zone, baselineEvent: rc.baselineEvent, dailyEvent: rc.dailyEvent)
        let pacer = RequestPacer(perMinute: rc.maxRequestsPerMinute,
                                 journal: SyncRequestJournal(database: database, clock: clock, logger: logger))
        let earlier = try pacer.resume()
        if earlier > 0 {
            logger.notice("redcap requests of the last minute before this start count against the rate cap",
                          ["requests": String(earlier), "max_requests_per_minute": String(rc.maxRequestsPerMinute)])
        }
        let client = REDCapClient(url: rc.url, token: token, caFile: rc.caFile, pacer: pacer)
        var settings = REDCapSync.Settings()
        settings.batchSize = rc.batchSize
        settings.unhealthyAfterSeconds = rc.unhealthyAfterMinutes * 60
        settings.settleSeconds = rc.settleSeconds
        let worker = REDCapSync(database: database, client: client, settings: settings, logger: logger, metrics: metrics, clock: clock,
                                events: events)
        let outbox = SyncOutbox(mapper: mapper, wake: { worker.wake() })
        return SyncService(database: database, outbox: outbox, worker: worker, rules: rules, clock: clock,
                           events: (rc.baselineEvent, rc.dailyEvent))
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
        database.close()
        logger.notice("stopped", ["in_flight_finished": String(finished)])
    }

    /// SIGHUP: reload and validate the rule files; invalid files are refused and the old kept,
    /// and so are files that lack a code an active patient carries (`StoredProfileCodes`).
    /// systemd is told a reload runs (`RELOADING=1`) and, either way, that it is over (`READY=1`).
    public func reloadRules() {
        supervision.reloading()
        defer { supervision.reloaded() }
        let checked = rules.reload { new throws(RulesError) in
            try StoredProfileCodes.enforce(database, rules: new, configuration: configuration, now: clock.now(), logger: logger)
        }
        switch checked {
        case .success(let version):
            metrics.rulesReloaded(ok: true)
            logger.notice("rules reloaded", ["rules_version": version])
        case .failure(let error):
            metrics.rulesReloaded(ok: false)
            logger.error("rules reload refused; the previous rules stay in force",
                         ["error": error.description, "rules_version": rules.snapshot.rules.version])
        }
    }

    /// On a database without staff: create the bootstrap admin and write its token to
    /// `DATA_DIR/admin.token` (0600) inside the same transaction, so a crash cannot leave an
    /// admin whose token nobody has. The path is logged, never the token.
    static func bootstrapAdmin(_ database: Database, configuration: ServerConfiguration, logger: Logger, now: Double) throws {
        let file = configuration.dataDirectory.appendingPathComponent("admin.token")
        let created: Bool = try database.write { db in
            guard let token = try StaffDirectory.bootstrapAdmin(db, now: now) else { return false }
            try OwnerOnlyFile.write(token + "\n", to: file.path)
            try AuditLog.append(db, at: epochMilliseconds(now), actor: "system", action: .staffBootstrap,
                                subject: "staff:\(StaffDirectory.bootstrapAdminName)", details: ["role": "admin"])
            return true
        }
        if created {
            logger.notice("bootstrap admin token written; create named admins, then delete the file", ["path": file.path])
        }
    }
}

extension Daemon {
    /// The parts of the one listener.
    enum Site { case console, patientApp, api }

    /// Which part serves `path`: the console's pages, the patient app's pages, or the API.
    static func site(of path: String) -> Site {
        if path == "/console" || path.hasPrefix(Console.prefix) { return .console }
        if path == "/app" || path.hasPrefix(PatientApp.prefix) { return .patientApp }
        return .api
    }
}

/// Holds the OpenAPI document, built once the route list (which serves it) exists.
final class RoutesBox: @unchecked Sendable {
    // Written once during start-up before the server accepts requests, then only read.
    var document: JSONValue = .null
    /// The HTTP server, for its connection metrics; set once it runs.
    var server: HTTPServer?
}

/// A start-up failure with a message for the operator.
public struct DaemonError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
