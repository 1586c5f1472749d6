import Foundation
import HTJSON
import HTTPServer
import HyponaTrackDomain

/// Turns an HTTP request into a response: route, authenticate, authorise, parse the JSON body,
/// call the handler, map errors to the docs/product.md error shape, count and log.
public final class APIHandler: Sendable {
    public let routes: [Route]
    /// The routes that take a file upload (`spoolDecision`).
    let uploadRoutes: [Route]
    let database: Database
    let clock: any ServerClock
    let metrics: Metrics
    let logger: Logger
    let trustedProxies: Set<String>
    /// When patient tokens stop working (nil: they do not expire; in-process tests).
    let patientTokens: PatientTokenLifetime?

    public init(routes: [Route], database: Database, clock: any ServerClock, metrics: Metrics, logger: Logger,
                trustedProxies: [String], patientTokens: PatientTokenLifetime? = nil) {
        self.routes = routes
        uploadRoutes = routes.filter { $0.uploadTypes != nil }
        self.database = database
        self.clock = clock
        self.metrics = metrics
        self.logger = logger
        self.trustedProxies = Set(trustedProxies)
        self.patientTokens = patientTokens
    }

    /// Whether `request` is for a route that may run on the HTTP server's polling thread. The
    /// route found is kept in `request.resolution`, so `handle` does not look for it again.
    public func runsOnPollingThread(_ request: inout HTTPRequest) -> Bool {
        guard let found = try? locate(request) else { return false }
        request.resolution = found
        return routes[found.index].runsOnPollingThread
    }

    /// Answers `request` through `responder` (exactly once).
    public func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
        var call = Call(started: DispatchTime.now().uptimeNanoseconds)
        let outcome: Result<RouteResult, any Error>
        do {
            let (route, params) = try resolve(request)
            call.routeName = route.template
            let clientIP = clientIP(request)
            try route.limit?.admit(clientIP)
            call.limited = route.limit
            call.principal = try authorize(request, route, params)
            let body = try parseBody(request, route)
            let context = RequestContext(request: request, parameters: params, principal: call.principal, body: body,
                                         clientIP: clientIP)
            let result = try route.handler(context)
            if case .later(let start) = result {
                // Answered from another thread; the response is made on the one that sends it.
                let finished = call
                start { answer in responder.respond(building: { self.response(to: request, finished, Result { try answer() }) }) }
                return
            }
            outcome = .success(result)
        } catch {
            outcome = .failure(error)
        }
        responder.respond(response(to: request, call, outcome))
    }

    /// What is known of a request once it reached its route, for the answer's metrics and log line.
    struct Call: Sendable {
        let started: UInt64
        var routeName = "unmatched"
        var principal: Principal?
        var limited: AnonymousLimit?
    }

    /// The HTTP answer to `outcome`: errors mapped to the docs/product.md error shape; counted and logged.
    func response(to request: HTTPRequest, _ call: Call, _ outcome: Result<RouteResult, any Error>) -> HTTPResponse {
        let response: HTTPResponse
        do {
            switch try outcome.get() {
            case .json(let status, let value): response = Self.json(status, value)
            case .raw(let r): response = r
            case .later:
                // A later answer whose answer is later again: a handler bug (logged below).
                struct AnswerLaterAgain: Error {}
                throw AnswerLaterAgain()
            }
        } catch let error as APIError {
            response = Self.error(error)
        } catch let error as DomainError {
            response = Self.error(APIError(error))
        } catch let error as FieldError {
            response = Self.error(APIError.from(error))
        } catch {
            // Anything else is a bug or the database failing, never the caller's mistake.
            logger.error("request failed", ["route": call.routeName, "request_id": request.requestID, "error": "\(error)"])
            response = Self.error(APIError(status: 500, code: "internal", message: "the server could not complete the request; it is logged"))
        }
        let clientIP = clientIP(request)
        call.limited?.settle(clientIP, status: response.status.rawValue)
        let elapsed = DispatchTime.now().uptimeNanoseconds - call.started
        let seconds = Double(elapsed) / 1e9
        metrics.requestCompleted(method: request.method.rawValue, route: call.routeName, status: response.status.rawValue, seconds: seconds)
        logger.info("request", ["method": request.method.rawValue, "route": call.routeName, "status": String(response.status.rawValue),
                                "duration_ms": Self.milliseconds(nanoseconds: elapsed), "ip": clientIP,
                                "request_id": request.requestID, "actor": call.principal.map(Self.actorKind) ?? "-"])
        return response
    }

    /// `12.34`: milliseconds with two decimals (`String(format:)` costs more than the rest of the log line).
    static func milliseconds(nanoseconds: UInt64) -> String {
        let hundredths = (nanoseconds + 5_000) / 10_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Study IDs are pseudonymous but logs do not need them: staff by name, patients by kind.
    static func actorKind(_ p: Principal) -> String {
        switch p {
        case .staff(_, let name, _): return "staff:\(name)"
        case .patient: return "patient"
        }
    }

    /// A request's route (by position in `routes`) and path parameters, as `runsOnPollingThread`
    /// found them; `handler` tells this handler's resolutions from any other's.
    struct Resolution: Sendable {
        let handler: ObjectIdentifier
        let index: Int
        let parameters: [String: String]
    }

    func resolve(_ request: HTTPRequest) throws -> (Route, [String: String]) {
        let found: Resolution
        if let kept = request.resolution as? Resolution, kept.handler == ObjectIdentifier(self) {
            found = kept
        } else {
            found = try locate(request)
        }
        return (routes[found.index], found.parameters)
    }

    /// The first route whose method and path fit (a GET route serves HEAD too); 404 when no path
    /// fits, 405 when only the method does not.
    private func locate(_ request: HTTPRequest) throws -> Resolution {
        var allowed: [String] = []
        let path = PathTemplate.Segments(request.path)
        for (index, route) in routes.enumerated() {
            guard let params = route.match(path) else { continue }
            if route.method.serves(request.method) { return Resolution(handler: ObjectIdentifier(self), index: index, parameters: params) }
            allowed.append(route.method.rawValue)
        }
        if allowed.isEmpty { throw APIError.notFound("no such resource: \(request.path.prefix(200))") }
        throw APIError(status: 405, code: "method_not_allowed", message: "allowed: \(allowed.joined(separator: ", "))",
                       allow: allowed)
    }

    func authorize(_ request: HTTPRequest, _ route: Route, _ params: [String: String]) throws -> Principal? {
        if route.access == .anonymous { return nil }
        guard let token = AuthorizationHeader.bearerToken(request.headers["authorization"]) else { throw APIError.unauthenticated }
        let now = clock.now()
        let principal: Principal
        switch try Authenticator.check(database, bearer: token, now: now, patientTokens: patientTokens) {
        case .valid(let p): principal = p
        case .expired: throw APIError.expiredToken
        case .invalid: throw APIError.unauthenticated
        }
        switch (route.access, principal) {
        case (.patient, .patient): return principal
        case (.staff(let needed), .staff(_, let name, let role)):
            // Staff names are unique ignoring case (the `staff.name` column is NOCASE).
            guard needed.allows(role, isSelf: params["name"]?.lowercased() == name.lowercased()) else {
                throw APIError.forbidden(needed == .adminOrSelf ? "the \(role.rawValue) role can do this only for themself"
                                                                : "the \(role.rawValue) role cannot do this")
            }
            return principal
        case (.patient, .staff): throw APIError.forbidden("this route is for the patient app")
        case (.staff, .patient): throw APIError.forbidden("this route is for study staff")
        default: throw APIError.unauthenticated
        }
    }

    func parseBody(_ request: HTTPRequest, _ route: Route) throws -> JSONValue {
        let type = request.headers.mediaType
        if let accepted = route.uploadTypes {
            // An upload: the handler reads the bytes (or the spool file) itself.
            guard let type, accepted.contains(type) else {
                throw APIError(status: 415, code: "unsupported_media_type", message: "send the file as one of \(accepted.joined(separator: ", "))")
            }
            return .null
        }
        guard route.requestSchema != nil else {
            return .null
        }
        if request.body.isEmpty && type == nil { return .object(JSONObject()) }
        guard type == "application/json" else {
            throw APIError(status: 415, code: "unsupported_media_type", message: "send the body as application/json")
        }
        do { return try JSONParser.parse(request.body) } catch {
            // A well-formed number that cannot be represented (`1e-400` would read as 0) is a
            // wrong value for its field, named like any other.
            if error.kind == .numberOutOfRange { throw APIError.invalid(error.path.isEmpty ? nil : error.path, error.message) }
            throw APIError.invalidJSON("the body is not valid JSON: \(error.description)")
        }
    }

    /// For the HTTP server, when a request's headers are complete: an upload route's body is
    /// spooled to disk, but only for a caller allowed to send it with an accepted content type
    /// (anyone else is answered before a byte of a large body is stored). Other routes buffer.
    public func spoolDecision(method: HTTPMethod, path: String, headers: HTTPHeaders) -> UploadSpool.Decision {
        // Called for every request: most are for no upload route at all, which the few upload
        // routes tell, by method alone before the path is split (no upload route is a PUT).
        guard uploadRoutes.contains(where: { $0.method == method }) else { return .buffer }
        let segments = PathTemplate.Segments(path)
        guard uploadRoutes.contains(where: { $0.method == method && $0.match(segments) != nil }) else { return .buffer }
        let request = HTTPRequest(method: method, path: path, headers: headers)
        guard let (route, params) = try? resolve(request), route.uploadTypes != nil else { return .buffer }
        do {
            _ = try authorize(request, route, params)
            _ = try parseBody(request, route)
            return .spool
        } catch let error as APIError {
            return .refuse(Self.error(error))
        } catch {
            return .refuse(Self.error(APIError(status: 500, code: "internal", message: "the server could not check the request")))
        }
    }

    /// The client's address: the peer, or, when the peer is a trusted proxy, the rightmost
    /// `X-Forwarded-For` hop that is not a trusted proxy.
    func clientIP(_ request: HTTPRequest) -> String {
        ForwardedFor.client(peer: request.clientAddress, headerLines: request.headers.values(for: "x-forwarded-for"),
                            trustedProxies: trustedProxies)
    }

    static func json(_ status: HTTPStatus, _ value: JSONValue) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Cache-Control", value: "no-store")
        return HTTPResponse(status: status, headers: headers, body: JSONSerializer.bytes(value))
    }

    static func error(_ e: APIError) -> HTTPResponse {
        var r = json(HTTPStatus(rawValue: e.status), e.body)
        if let after = e.retryAfter { r.headers.add(name: "Retry-After", value: String(after)) }
        if let allow = e.allow { r.headers.add(name: "Allow", value: allow.joined(separator: ", ")) }
        return r
    }
}
