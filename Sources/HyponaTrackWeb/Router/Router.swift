import Foundation
import HTJSON
import HTTPServer
import HyponaTrackDomain

/// The one router for every route, API and pages (docs/product.md, third round, R): one table,
/// one ordered chain of steps declared once in `handle` —
///
///     route → limit → authenticate → authorise → read the input → confine → handler → render → finish
///
/// — and one error mapping (`Problem`), rendered as a JSON problem under `/v1/` and as a page in
/// its family's layout under `/console/` and `/app/`. Where the sites differ (a bearer token or
/// a cookie, a JSON body or a form with its CSRF token) the step says so, in one place.
public final class Router: Sendable {
    /// The table: every route of the API and of both page families, in matching order.
    public let routes: [Route]
    /// The routes that take a file upload or a JSON body above the server's limit (`spoolDecision`).
    let largeBodyRoutes: [Route]
    /// The table's positions by the number of path segments (in table order): a request is
    /// matched only against the routes that could fit it.
    let routesBySegments: [Int: [Int]]
    /// The page families by prefix; a path none serves is the API's.
    let families: [PageFamily]
    let tokens: TokenCheck
    /// The scope rule's reads (`confine`).
    let sites: SiteService
    let metrics: Metrics
    let logger: Logger
    let trustedProxies: Set<String>

    init(routes: [Route], families: [PageFamily], tokens: TokenCheck, sites: SiteService, metrics: Metrics, logger: Logger,
         trustedProxies: [String]) {
        self.sites = sites
        self.routes = routes
        largeBodyRoutes = routes.filter { $0.uploadTypes != nil || $0.maxBodyBytes != nil }
        routesBySegments = Dictionary(grouping: routes.indices) { routes[$0].path.segmentCount }
        self.families = families
        self.tokens = tokens
        self.metrics = metrics
        self.logger = logger
        self.trustedProxies = Set(trustedProxies)
    }

    /// Answers `http` through `responder`, exactly once.
    public func handle(_ http: HTTPRequest, _ responder: HTTPResponder) {
        var exchange = Exchange(http, family: family(serving: http.path), trustedProxies: trustedProxies)
        let response: HTTPResponse
        do {
            let (route, parameters) = try resolve(http, &exchange)
            try admit(route, &exchange)
            try authenticate(route, &exchange)
            try authorise(route, parameters, exchange)
            switch route.handler {
            case .api(let handler):
                let body = try parseBody(http, route)
                var context = RequestContext(request: http, parameters: parameters, principal: exchange.principal, body: body,
                                             clientIP: exchange.clientIP)
                context.scope = try confine(route, parameters, exchange).reach
                let result = try handler(context)
                if case .later(let deferred) = result {
                    // Answered from the commit; the response is built on the thread that sends it.
                    let settled = exchange
                    deferred.run { build in
                        responder.respond(building: { self.finish(self.render(Result { try build() }, settled), settled) })
                    }
                    return
                }
                response = render(.success(result), exchange)
            case .page(let handler):
                let form = try readForm(route, exchange)
                var context = PageContext(request: exchange.web!, parameters: parameters, session: exchange.session, form: form)
                context.patient = exchange.patient
                context.signInFormToken = exchange.signInForm?.formToken
                let confined = try confine(route, parameters, exchange)
                context.scope = confined.reach
                context.allSites = confined.member.isAllSites
                response = try handler(context)
            }
        } catch {
            response = render(error, exchange)
        }
        responder.respond(finish(response, exchange))
    }

    /// Whether `http` is for a route that may run on the HTTP server's polling thread.
    public func runsOnPollingThread(_ http: HTTPRequest) -> Bool {
        guard family(serving: http.path) == nil, let (route, _) = try? locate(http) else { return false }
        return route.runsOnPollingThread
    }

    /// For the HTTP server, when a request's headers are complete: an upload route's body is
    /// spooled to disk, and a route with its own `maxBodyBytes` buffers up to that, but only for
    /// a caller allowed to send it (with an accepted content type, for an upload): anyone else is
    /// answered before a byte of a large body is stored. Other routes buffer under the server's limit.
    public func spoolDecision(method: HTTPMethod, path: String, headers: HTTPHeaders) -> UploadSpool.Decision {
        // Called for every request: most are for none of the few large-body routes, which they
        // tell by method alone before the path is split (none of them is a GET).
        guard largeBodyRoutes.contains(where: { $0.method == method }) else { return .buffer }
        let segments = PathTemplate.Segments(path)
        guard largeBodyRoutes.contains(where: { $0.method == method && $0.match(segments) != nil }) else { return .buffer }
        let http = HTTPRequest(method: method, path: path, headers: headers)
        var exchange = Exchange(http, family: nil, trustedProxies: trustedProxies)
        do {
            let (route, parameters) = try resolve(http, &exchange)
            guard route.uploadTypes != nil || route.maxBodyBytes != nil else { return .buffer }
            try authenticate(route, &exchange)
            try authorise(route, parameters, exchange)
            // The JSON body is read after it has arrived, as on any route.
            if let limit = route.maxBodyBytes, route.uploadTypes == nil { return .bufferUpTo(limit) }
            _ = try parseBody(http, route)
            _ = try confine(route, parameters, exchange)
            return .spool
        } catch {
            return .refuse(APIResponse.error((Problem.of(error) ?? .internalError).api))
        }
    }

    /// The family's error page for an answer the HTTP server gives before a handler runs (an
    /// unreadable path, a body over the limit, the stopping 503); nil keeps the API's JSON.
    public func page(for refusal: HTTPServerRefusal) -> HTTPResponse? {
        family(serving: refusal.rawPath).map { $0.page(for: refusal, trustedProxies: trustedProxies) }
    }

    func family(serving path: String) -> PageFamily? { families.first { $0.serves(path) } }

    /// What is known of a request as it goes through the steps: for the handler, the answer's
    /// rendering, the metrics and the log line.
    struct Exchange: Sendable {
        let http: HTTPRequest
        let family: PageFamily?
        /// A page's request with its cookies and language read once (nil for the API).
        let web: WebRequest?
        let clientIP: String
        let started = DispatchTime.now().uptimeNanoseconds
        var routeName = "unmatched"
        var limit: AnonymousLimit?
        /// The API's caller (a bearer token).
        var principal: Principal?
        /// The console's signed-in staff member.
        var session: WebSession?
        /// The web check-in's patient.
        var patient: PatientWebSession?
        /// A sign-in form's pre-session token: the browser's, or a new one the answer sets.
        var signInForm: SignInFormToken?
        var newSignInForm: SignInFormToken?

        init(_ http: HTTPRequest, family: PageFamily?, trustedProxies: Set<String>) {
            self.http = http
            self.family = family
            if family != nil {
                let web = WebRequest(http, trustedProxies: trustedProxies)
                self.web = web
                clientIP = web.clientIP
            } else {
                web = nil
                clientIP = ForwardedFor.client(peer: http.clientAddress, headerLines: http.headers.values(for: "x-forwarded-for"),
                                               trustedProxies: trustedProxies)
            }
        }

        /// Who is asking, whichever way they signed in.
        var caller: Caller? {
            if let session { return .staff(name: session.name, role: session.role) }
            if patient != nil { return .patient }
            switch principal {
            case .staff(_, let name, let role)?: return .staff(name: name, role: role)
            case .patient?: return .patient
            case nil: return nil
            }
        }
    }

    enum Caller: Sendable {
        case staff(name: String, role: Role)
        case patient
    }
}
