import HTJSON
import HTTPServer
import HyponaTrackDomain

/// Who may call a route.
public enum Access: Sendable, Equatable {
    /// No token (health, metrics, spec, activation).
    case anonymous
    /// A patient token.
    case patient
    /// A staff token with at least this capability.
    case staff(StaffCapability)
}

/// docs/product.md roles: viewer reads; nurse also writes clinical data; admin also manages staff,
/// sync and backups. `adminOrSelf`: an admin, or the staff member the route's `{name}` names
/// (`staff rotate`: "for admins (any member) and for a member themself").
public enum StaffCapability: String, Sendable {
    case read, write, admin, adminOrSelf

    /// Whether `role` has this capability; `isSelf`: the member the request names is the caller.
    public func allows(_ role: Role, isSelf: Bool = false) -> Bool {
        switch self {
        case .read: return role.canRead
        case .write: return role.canWrite
        case .admin: return role.canAdmin
        case .adminOrSelf: return role.canAdmin || isSelf
        }
    }
}

/// The parsed request a handler sees.
public struct RequestContext: Sendable {
    public let request: HTTPRequest
    public let parameters: [String: String]
    public let principal: Principal?
    /// The JSON body (`.null` when the route takes none).
    public let body: JSONValue
    /// The client's address: the peer, or the forwarded client when the peer is a trusted proxy.
    public let clientIP: String

    public func parameter(_ name: String) -> String { parameters[name] ?? "" }
    public func query(_ name: String) -> String? { request.query[name] }

    /// The preferred instruction language from `Accept-Language` (`de` or `en`).
    public var language: String? { Language.preferred(acceptLanguage: request.headers["accept-language"])?.rawValue }

    var actor: String { principal?.auditActor ?? "anonymous" }
}

/// A handler's answer: status and JSON body, or a prepared non-JSON response, or one that
/// comes later.
public enum RouteResult: Sendable {
    case json(HTTPStatus, JSONValue)
    case raw(HTTPResponse)
    /// The answer comes later, from another thread: `start` is called at once with `finish`,
    /// which it calls exactly once, when the outcome is known (a write, from its COMMIT), with
    /// a closure that makes the answer (or throws the request's error). That closure runs
    /// when the answer is sent, on the thread that sends it, not on the one that calls `finish`.
    case later(_ start: @Sendable (_ finish: @escaping @Sendable (_ answer: @escaping @Sendable () throws -> RouteResult) -> Void) -> Void)
}

/// One operation of the API: method, path template, who may call it, its OpenAPI description
/// and its handler. The router and `/openapi.json` are both built from the same list, so they
/// cannot disagree.
public struct Route: Sendable {
    public let method: HTTPMethod
    public let template: String
    public let access: Access
    /// What the route touches (nil: undeclared, which `RouteTargetTests` refuses).
    public let touches: RouteTarget?
    /// The per-address token bucket of anonymous routes (nil: none).
    public let limit: AnonymousLimit?
    public let summary: String
    public let requestSchema: JSONValue?
    /// A route that takes the body as a file upload (not JSON): the content types it accepts.
    /// Such bodies may be as large as `imports.maxUploadBytes` and are spooled to disk.
    public let uploadTypes: [String]?
    public let responses: [HTTPStatus: (description: String, schema: JSONValue?)]
    public let handler: @Sendable (RequestContext) throws -> RouteResult
    /// Whether the handler may run on the HTTP server's polling thread
    /// (`HTTPServerConfiguration.runsOnPollingThread`): it answers `.later`, from a commit, and
    /// before that does only bounded work (a capped body, short indexed reads).
    public let runsOnPollingThread: Bool
    let path: PathTemplate

    public init(_ method: HTTPMethod, _ template: String, access: Access, touches: RouteTarget? = nil, limit: AnonymousLimit? = nil,
                summary: String,
                request: JSONValue? = nil, upload: [String]? = nil, responses: [HTTPStatus: (description: String, schema: JSONValue?)],
                runsOnPollingThread: Bool = false,
                handler: @escaping @Sendable (RequestContext) throws -> RouteResult) {
        self.method = method
        self.template = template
        self.touches = touches
        self.access = access
        self.limit = limit
        self.summary = summary
        self.requestSchema = request
        self.uploadTypes = upload
        self.responses = responses
        self.handler = handler
        self.runsOnPollingThread = runsOnPollingThread
        path = PathTemplate(template)
    }

    public var parameterNames: [String] { path.parameterNames }

    /// The path parameters when `path` fits the template.
    func match(_ path: PathTemplate.Segments) -> [String: String]? { self.path.match(path) }
}

/// A route's documented answers: status → description and body schema.
typealias ResponseTable = [HTTPStatus: (description: String, schema: JSONValue?)]

enum Responses {
    /// What any staff route can answer besides its own: 400, 401, 403 (and 404 when given).
    static func staff(notFound: String?) -> ResponseTable {
        var table: ResponseTable = [400: ("invalid request", S.error), 401: ("no valid staff token", S.error),
                                    403: ("role not allowed", S.error)]
        if let notFound { table[404] = (notFound, S.error) }
        return table
    }

    /// A route whose work is a long read (`Database.longRead`) also answers 503 `busy`.
    static func longRead(_ table: ResponseTable) -> ResponseTable {
        table.merging([503: ("too many long reads at once (busy); nothing was done, try again after Retry-After", S.error)]) { old, _ in old }
    }

    /// `with(extra)`: the common answers with the route's own added (its own win).
    static func adding(to common: ResponseTable) -> (ResponseTable) -> ResponseTable {
        { extra in common.merging(extra) { _, new in new } }
    }
}
