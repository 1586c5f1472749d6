import HTJSON
import HTTPServer
import HyponaTrackDomain

/// Who may use a route, API or page.
public enum Access: Sendable, Equatable {
    /// Anyone, with no token looked at (health, metrics, the spec, activation, stylesheets).
    case anonymous
    /// The two forms that sign someone in (`/console/login`, `/app/activate`): anyone may use
    /// them, but a post must carry the pre-session token of `SignInFormToken`, which showing the
    /// form sets up (`PageContext.signInFormToken`).
    case signIn
    /// A patient: a patient token (API) or the web check-in's cookie (`ht_patient`).
    case patient
    /// A staff member with at least this capability: a staff token (API) or a console session.
    case staff(StaffCapability)
    /// Signing out of the console: a live staff session is ended, its CSRF token checked as on
    /// every form; without one (it expired, was ended elsewhere, or never existed) there is
    /// nothing left to end and the page still runs, so the browser clears its stale cookie.
    case staffSignOut
    /// Signing out of the web check-in, as `staffSignOut` for the console: with a live token the
    /// form's CSRF token is checked; with one that has expired or was revoked the page still
    /// runs, so the browser drops the dead cookie instead of keeping it behind a 403.
    case patientSignOut
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

/// What a route does with a request that passed the pipeline's steps: an API operation answers
/// with JSON (or a prepared response, or later); a page answers with a prepared response.
public enum RouteHandler: Sendable {
    case api(@Sendable (RequestContext) throws -> RouteResult)
    case page(@Sendable (PageContext) throws -> HTTPResponse)
}

/// One route of the one table (`Router`): method, path template, who may use it, what it
/// touches, its per-address bucket and its handler; an API route also carries its OpenAPI
/// description. The router, `/openapi.json` and the tests that walk every route (what each
/// touches, the sites' authorisation matrix) are all built from the same list, so they cannot
/// disagree. A class: the router walks the table for every request, and a reference is one
/// retain where a struct of a dozen fields is a dozen.
public final class Route: Sendable {
    public let method: HTTPMethod
    public let template: String
    public let access: Access
    /// What the route touches (nil: undeclared, which `RouteTargetTests` refuses).
    public let touches: RouteTarget?
    /// The per-address token bucket of anonymous routes (nil: none).
    public let limit: AnonymousLimit?
    public let handler: RouteHandler
    /// The OpenAPI summary (empty for a page).
    public let summary: String
    public let requestSchema: JSONValue?
    /// A route that takes the body as a file upload (not JSON): the content types it accepts.
    /// Such bodies may be as large as `imports.maxUploadBytes` and are spooled to disk.
    public let uploadTypes: [String]?
    /// A JSON body may be this large (in memory) instead of the server's `maxBodyBytes`; nil: the
    /// server's limit.
    public let maxBodyBytes: Int?
    public let responses: [HTTPStatus: (description: String, schema: JSONValue?)]
    /// The query parameters an API operation reads (`/openapi.json` lists them).
    public let query: [QueryParameter]
    /// Whether the handler may run on the HTTP server's polling thread
    /// (`HTTPServerConfiguration.runsOnPollingThread`): it answers `.later`, from a commit, and
    /// before that does only bounded work (a capped body, short indexed reads).
    public let runsOnPollingThread: Bool
    let path: PathTemplate

    /// An API operation.
    public init(_ method: HTTPMethod, _ template: String, access: Access, touches: RouteTarget? = nil, limit: AnonymousLimit? = nil,
                summary: String,
                request: JSONValue? = nil, upload: [String]? = nil, maxBodyBytes: Int? = nil, query: [QueryParameter] = [],
                responses: [HTTPStatus: (description: String, schema: JSONValue?)], runsOnPollingThread: Bool = false,
                handler: @escaping @Sendable (RequestContext) throws -> RouteResult) {
        self.method = method
        self.template = template
        self.touches = touches
        self.access = access
        self.limit = limit
        self.summary = summary
        self.requestSchema = request
        self.uploadTypes = upload
        self.maxBodyBytes = maxBodyBytes
        self.responses = responses
        self.query = query
        self.handler = .api(handler)
        self.runsOnPollingThread = runsOnPollingThread
        path = PathTemplate(template)
    }

    /// A page or a form target.
    public init(_ method: HTTPMethod, _ template: String, access: Access, touches: RouteTarget? = nil, limit: AnonymousLimit? = nil,
                page handler: @escaping @Sendable (PageContext) throws -> HTTPResponse) {
        self.method = method
        self.template = template
        self.touches = touches
        self.access = access
        self.limit = limit
        summary = ""
        requestSchema = nil
        uploadTypes = nil
        maxBodyBytes = nil
        responses = [:]
        query = []
        self.handler = .page(handler)
        runsOnPollingThread = false
        path = PathTemplate(template)
    }

    public var parameterNames: [String] { path.parameterNames }

    /// Whether this route is a page (HTML, a form target, a download from the console).
    public var isPage: Bool { if case .page = handler { true } else { false } }

    /// The path parameters when `path` fits the template.
    func match(_ path: PathTemplate.Segments) -> [String: String]? { self.path.match(path) }
}

/// An optional query parameter of an API operation, declared with its route: its name, the
/// schema of its values and what it does, as `/openapi.json` lists it.
public struct QueryParameter: Sendable {
    public let name: String
    public let schema: JSONValue
    public let description: String

    public init(_ name: String, schema: JSONValue, description: String) {
        self.name = name
        self.schema = schema
        self.description = description
    }

    var openAPI: JSONValue {
        ["name": .string(name), "in": "query", "required": false, "schema": schema, "description": .string(description)]
    }
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
