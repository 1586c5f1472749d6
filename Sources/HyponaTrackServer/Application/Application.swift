import Foundation
import Dispatch
import HTJSON
import HTTPServer
import HyponaTrackCore
import HyponaTrackKit
import SQLite

/// The whole product without a socket (docs/product.md, third round, R): built from the
/// configuration, a logger and a clock, it opens the database, loads the rules, wires the
/// services, the API and the two page families behind one `handle`, and holds the background
/// services unstarted. The daemon binds a listener and serves it; tests build it and send it
/// requests in-process, pages included. Nothing is bound late: every part gets what it needs
/// when it is built (the server that received a request is in the request, for `/metrics`).
public final class Application: Sendable {
    public let configuration: ServerConfiguration
    public let logger: Logger
    public let database: Database
    public let rules: ActiveRules
    public let service: StudyService
    /// The API (`/v1/…`, `/healthz`, `/metrics`, `/openapi.json`).
    public let api: APIHandler
    /// The browser console's pages (`/console/…`).
    public let web: WebHandler
    /// The web check-in's pages (`/app/`).
    public let appWeb: WebHandler
    let metrics: Metrics
    let sync: SyncService?
    let delivery: HookDelivery
    let scheduler: Scheduler
    /// Writes the refused activation attempts' summaries to the audit trail (every minute, at stop).
    let refusalSummaries: RefusalSummaries
    /// Hook delivery, REDCap sync, scheduler, refusal summaries: started by the daemon in this
    /// order, stopped in reverse.
    let workers: [any BackgroundService]
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
        let database = try Database(directory: configuration.dataDirectory, auditKey: auditKey,
                                    readers: Database.readerCount(handlerThreads: configuration.http.threads),
                                    longReads: .longReads(handlerThreads: configuration.http.threads,
                                                          connections: Database.longReaderCount))
        self.database = database
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
        do { try Self.bootstrapAdmin(database, configuration: configuration, logger: logger, now: clock.now()) } catch {
            database.close()
            throw error
        }
        let metrics = Metrics()
        self.metrics = metrics
        let hooks = configuration.hooks
        let delivery: HookDelivery, sync: SyncService?
        do {
            delivery = HookDelivery(database: database, transports: try HookTransports.make(hooks, rules: rules), logger: logger,
                                    clock: clock)
            // sync.unhealthy / sync.halted go to the hooks that subscribe to them.
            sync = try Self.makeSync(configuration: configuration, database: database, rules: rules, logger: logger,
                                     metrics: SyncMetrics(), clock: clock,
                                     events: SyncHookEvents(hooks: hooks, wake: { delivery.wake() }))
        } catch {
            database.close()
            throw error
        }
        self.delivery = delivery
        self.sync = sync
        let alerting = Alerting(ladder: configuration.escalation, hooks: hooks, outbox: sync?.outbox) { patient in
            rules.snapshot.engine.risk.assess(patient.profile).riskClass.rawValue
        }
        let service = StudyService(database: database, rules: rules, clock: clock, configuration: configuration, metrics: metrics,
                                   outbox: sync?.outbox, alerting: alerting, hooksWake: { delivery.wake() })
        self.service = service
        let refusals = ActivationRefusals()
        scheduler = Scheduler(database: database, rules: rules, alerting: alerting, hooks: hooks, logger: logger,
                              interval: configuration.schedulerIntervalSeconds, clock: clock, checkpoints: service.audit.checkpoints,
                              onQueued: { delivery.wake() })
        let activation = ActivationService(database: database, clock: clock, configuration: configuration, rules: rules,
                                           outbox: sync?.outbox, refusals: refusals)
        refusalSummaries = RefusalSummaries(database: database, refusals: refusals, clock: clock, logger: logger)
        let anonymousLimit = AnonymousLimit(
            limiter: AnonymousRateLimiter(perMinute: configuration.limits.anonymousPerMinute, clock: clock),
            refused: { ip in refusals.record(ip: ip, .rateLimited) })
        let passwordChecks = AdmissionGate.passwordChecks()
        let healthCheck = HealthCheck(database: database, rules: rules, clock: clock, syncEnabled: sync != nil,
                                      escalation: configuration.escalation)
        if !healthCheck.escalationConfigured {
            logger.warning("no escalation tier is configured: alerts are stored and shown but reach nobody; add an escalation block (docs/operations.md)",
                           ["hooks": String(hooks.count)])
        }
        let routes = Routes.patient(service, activation, anonymousLimit: anonymousLimit) + Routes.staff(service, activation)
            + Routes.sync(sync)
            + Routes.alerts(service.alerts, hooksStatus: { try database.read { db in try HookDelivery.status(db, hooks: hooks) } })
        let syncMetrics = sync?.worker.metrics
        let renderMetrics: @Sendable (HTTPRequest) -> String = { request in
            metrics.render([.gauge("hyponatrack_database_pending_writes", "Write jobs queued for the next commit.",
                                   Double(database.writer.statistics.pendingJobs))] + refusals.families
                           + AdmissionMetrics.families(longReads: database.longReadAdmission, signIns: passwordChecks)
                           + (request.transport.map(HTTPMetrics.families) ?? []) + (syncMetrics?.families ?? []))
        }
        // The OpenAPI document describes every route, its own too: the system routes are drawn
        // once to be described, then built with the document.
        let system = { (document: JSONValue) in
            Routes.system(health: { healthCheck.check() }, metrics: renderMetrics, openAPI: document)
        }
        let document = OpenAPIDocument.build(routes: routes + system(.null))
        let handler = APIHandler(routes: routes + system(document), database: database, clock: clock, metrics: metrics, logger: logger,
                                 trustedProxies: configuration.trustedProxies, patientTokens: activation.tokenLifetime)
        api = handler
        let sessions = SessionService(transactions: service.context.transactions, clock: clock, lockout: activation.policy,
                                      passwordChecks: passwordChecks)
        let console = Console(study: service, sessions: sessions, sync: sync, hooks: {
            try database.read { db in try hooks.map { ($0, try HookOutboxRepository.summary(db, hook: $0.name)) } }
        }, signInLimit: anonymousLimit)
        web = WebHandler(routes: console.routes(), sessions: sessions, trustedProxies: Set(configuration.trustedProxies),
                         metrics: metrics, logger: logger, signInPath: "/console/login", errorPage: console.errorPage)
        let patientSessions = PatientWebSessions(database: database, clock: clock, lifetime: handler.patientTokens)
        let app = PatientApp(study: service, activation: activation, patients: patientSessions, activateLimit: anonymousLimit)
        appWeb = WebHandler(routes: app.routes(), patients: patientSessions, trustedProxies: Set(configuration.trustedProxies),
                            metrics: metrics, logger: logger, signInPath: "/app/activate", errorPage: app.errorPage)
        workers = [delivery] + (sync.map { [$0.worker] } ?? []) + [scheduler, refusalSummaries]
    }

    /// Every request: the console's pages, the patient app's pages or the API.
    public func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
        switch Self.site(of: request.path) {
        case .console: web.handle(request, responder)
        case .patientApp: appWeb.handle(request, responder)
        case .api: api.handle(request, responder)
        }
    }

    /// What the server answers before a handler runs (an unreadable path, a body over the
    /// limit, the stopping 503) is a page, with the page headers, on the pages' paths; nil keeps
    /// the API's JSON envelope.
    public func page(for refusal: HTTPServerRefusal) -> HTTPResponse? {
        switch Self.site(of: refusal.rawPath) {
        case .console: web.page(for: refusal)
        case .patientApp: appWeb.page(for: refusal)
        case .api: nil
        }
    }

    /// The patient's day submission: planned where it arrived, answered from its commit.
    public func runsOnPollingThread(_ request: inout HTTPRequest) -> Bool {
        Self.site(of: request.path) == .api && api.runsOnPollingThread(&request)
    }

    /// Reloads and validates the rule files; invalid files are refused and the old kept, and so
    /// are files that lack a code an active patient carries (`StoredProfileCodes`).
    public func reloadRules() {
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

    /// Closes the database (after the workers stopped).
    public func close() { database.close() }

    /// The parts of the one listener.
    enum Site { case console, patientApp, api }

    /// Which part serves `path`: the console's pages, the patient app's pages, or the API.
    static func site(of path: String) -> Site {
        if path == "/console" || path.hasPrefix(Console.prefix) { return .console }
        if path == "/app" || path.hasPrefix(PatientApp.prefix) { return .patientApp }
        return .api
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
