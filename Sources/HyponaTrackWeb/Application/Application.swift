import Foundation
import Dispatch
import HTJSON
import HTTPServer
import HyponaTrackCore
import HyponaTrackKit
import HyponaTrackDomain

/// The whole product without a socket (docs/product.md, third round, R): built from the
/// configuration, a logger and a clock, it opens the database, loads the rules, wires the
/// services, the API and the two page families behind one `handle`, and holds the background
/// services unstarted. The daemon binds a listener and serves it; tests build it and send it
/// requests in-process, pages included. Nothing is bound late: every part gets what it needs
/// when it is built (the server that received a request is in the request, for `/metrics`).
public final class Application: Sendable {
    /// The domain: database, rules, services, workers.
    public let domain: StudyDomain
    /// The one router: the API (`/v1/…`, `/healthz`, `/metrics`, `/openapi.json`), the
    /// console's pages (`/console/…`) and the web check-in's (`/app/…`).
    public let router: Router

    public var configuration: ServerConfiguration { domain.configuration }
    public var logger: Logger { domain.logger }
    public var database: Database { domain.database }
    public var rules: ActiveRules { domain.rules }
    public var service: StudyService { domain.service }
    public var workers: [any BackgroundService] { domain.workers }

    public init(configuration: ServerConfiguration, logger: Logger, clock: any ServerClock = SystemClock()) throws {
        let domain = try StudyDomain(configuration: configuration, logger: logger, clock: clock)
        self.domain = domain
        let service = domain.service, activation = domain.activation, sync = domain.sync, metrics = domain.metrics
        let database = domain.database, refusals = domain.refusals, passwordChecks = domain.passwordChecks
        let healthCheck = domain.healthCheck
        let anonymousLimit = AnonymousLimit(limiter: domain.anonymousLimiter, refused: { ip in refusals.record(ip: ip, .rateLimited) })
        let routes = Routes.patient(service, activation, anonymousLimit: anonymousLimit) + Routes.devices(service.devices)
            + Routes.staff(service, activation) + Routes.secondFactor(domain.secondFactor)
            + Routes.sync(sync)
            + Routes.alerts(service.alerts, hooksStatus: { try domain.hookStatus() })
            + Routes.operations(backups: service.backup, hooks: domain.hookAdmin)
        let syncMetrics = domain.syncMetrics, pushMetrics = domain.pushMetrics
        let renderMetrics: @Sendable (HTTPRequest) -> String = { request in
            metrics.render([.gauge("hyponatrack_database_pending_writes", "Write jobs queued for the next commit.",
                                   Double(database.writer.statistics.pendingJobs))] + refusals.families
                           + AdmissionMetrics.families(longReads: database.longReadAdmission, signIns: passwordChecks)
                           + (request.transport.map(HTTPMetrics.families) ?? []) + (syncMetrics?.families ?? [])
                           + pushMetrics.families + domain.operationsMetrics())
        }
        // The OpenAPI document describes every route, its own too: the system routes are drawn
        // once to be described, then built with the document.
        let system = { (document: JSONValue) in
            Routes.system(health: { healthCheck.check() }, metrics: renderMetrics, openAPI: document)
        }
        let document = OpenAPIDocument.build(routes: routes + system(.null))
        let sessions = domain.sessions
        let console = Console(study: service, sessions: sessions, secondFactor: domain.secondFactor, singleSignOn: domain.singleSignOn,
                              passwordSignIn: configuration.console.passwordSignIn, sync: sync, hooks: { try domain.hookSummaries() },
                              signInLimit: anonymousLimit)
        let patientSessions = domain.patientSessions
        let app = PatientApp(study: service, activation: activation, patients: patientSessions, activateLimit: anonymousLimit,
                             push: PushRegistration(devices: service.devices, vapidPublicKey: domain.pushKeys.vapid?.publicKeyBase64URL))
        let families = [
            PageFamily(prefix: Console.prefix, callers: .staff(sessions), signInPath: "/console/login", returnsAfterSignIn: true,
                       errorPage: console.errorPage),
            PageFamily(prefix: PatientApp.prefix, callers: .patients(patientSessions), signInPath: "/app/activate",
                       returnsAfterSignIn: false, errorPage: app.errorPage),
        ]
        router = Router(routes: routes + system(document) + console.routes() + app.routes(), families: families,
                        tokens: TokenCheck(database: database, clock: clock, patientTokens: activation.tokenLifetime),
                        sites: service.sites, metrics: metrics, logger: logger, trustedProxies: configuration.trustedProxies)
    }

    /// Every request, API or page, through the one router.
    public func handle(_ request: HTTPRequest, _ responder: HTTPResponder) { router.handle(request, responder) }

    /// What the server answers before a handler runs (an unreadable path, a body over the
    /// limit, the stopping 503) is a page, with the page headers, on the pages' paths; nil keeps
    /// the API's JSON envelope.
    public func page(for refusal: HTTPServerRefusal) -> HTTPResponse? { router.page(for: refusal) }

    /// The patient's day submission: planned where it arrived, answered from its commit.
    public func runsOnPollingThread(_ request: HTTPRequest) -> Bool { router.runsOnPollingThread(request) }

    /// Reloads the rule files (SIGHUP); invalid ones are refused and the old kept.
    public func reloadRules() { domain.reloadRules() }

    /// Closes the database (after the workers stopped).
    public func close() { domain.close() }
}
