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
    /// The API (`/v1/…`, `/healthz`, `/metrics`, `/openapi.json`).
    public let api: APIHandler
    /// The browser console's pages (`/console/…`).
    public let web: WebHandler
    /// The web check-in's pages (`/app/`).
    public let appWeb: WebHandler

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
        let routes = Routes.patient(service, activation, anonymousLimit: anonymousLimit) + Routes.staff(service, activation)
            + Routes.sync(sync)
            + Routes.alerts(service.alerts, hooksStatus: { HookStatus.json(try domain.hookStatus()) })
        let syncMetrics = domain.syncMetrics
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
        let sessions = domain.sessions
        let console = Console(study: service, sessions: sessions, sync: sync, hooks: { try domain.hookSummaries() },
                              signInLimit: anonymousLimit)
        web = WebHandler(routes: console.routes(), sessions: sessions, trustedProxies: Set(configuration.trustedProxies),
                         metrics: metrics, logger: logger, signInPath: "/console/login", errorPage: console.errorPage)
        let patientSessions = domain.patientSessions
        let app = PatientApp(study: service, activation: activation, patients: patientSessions, activateLimit: anonymousLimit)
        appWeb = WebHandler(routes: app.routes(), patients: patientSessions, trustedProxies: Set(configuration.trustedProxies),
                            metrics: metrics, logger: logger, signInPath: "/app/activate", errorPage: app.errorPage)
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

    /// Reloads the rule files (SIGHUP); invalid ones are refused and the old kept.
    public func reloadRules() { domain.reloadRules() }

    /// Closes the database (after the workers stopped).
    public func close() { domain.close() }

    /// The parts of the one listener.
    enum Site { case console, patientApp, api }

    /// Which part serves `path`: the console's pages, the patient app's pages, or the API.
    static func site(of path: String) -> Site {
        if path == "/console" || path.hasPrefix(Console.prefix) { return .console }
        if path == "/app" || path.hasPrefix(PatientApp.prefix) { return .patientApp }
        return .api
    }
}
