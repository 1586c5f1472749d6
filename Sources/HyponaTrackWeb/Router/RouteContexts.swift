import HTJSON
import HTTPServer
import HyponaTrackDomain

/// What an API handler sees once the pipeline's steps passed: the request, its path
/// parameters, the caller and the parsed JSON body.
public struct RequestContext: Sendable {
    public let request: HTTPRequest
    public let parameters: [String: String]
    public let principal: Principal?
    /// The JSON body (`.null` when the route takes none).
    public let body: JSONValue
    /// The client's address: the peer, or the forwarded client when the peer is a trusted proxy.
    public let clientIP: String
    /// The patients a staff caller reaches (the router's scope step; narrowed by `?site=` on a
    /// list or export); every site for anyone else.
    public var scope: SiteScope = .allSites

    public func parameter(_ name: String) -> String { parameters[name] ?? "" }
    public func query(_ name: String) -> String? { request.query[name] }

    /// The preferred instruction language from `Accept-Language` (`de` or `en`).
    public var language: String? { Language.preferred(acceptLanguage: request.headers["accept-language"])?.rawValue }

    var actor: String { principal?.auditActor ?? "anonymous" }
}

/// What a page handler sees: the request, the path parameters, the session and (for a POST)
/// the form, already checked for its CSRF token.
public struct PageContext: Sendable {
    public let request: WebRequest
    public let parameters: [String: String]
    public let session: WebSession?
    public let form: HTTPQueryParameters
    /// The patient of a web check-in page.
    public var patient: PatientWebSession? = nil
    /// For a `.signIn` page: the token its form carries (`<input name="csrf">`).
    var signInFormToken: String? = nil
    /// The patients the signed-in member reaches (as `RequestContext.scope`).
    public var scope: SiteScope = .allSites
    /// Whether the member works for every site (their reach before any `?site=`): the board's
    /// site column and the pages' site filters are theirs only.
    public var allSites = true

    public var language: Language { request.language }
    public func parameter(_ name: String) -> String { parameters[name] ?? "" }
    public func query(_ name: String) -> String? { request.http.query[name] }
    /// The form field, trimmed; nil when absent or blank.
    public func field(_ name: String) -> String? {
        guard let v = form[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !v.isEmpty else { return nil }
        return v
    }
    var actor: String { session?.actor ?? patient?.actor ?? "anonymous" }
}

/// An API handler's answer: status and JSON body, a prepared non-JSON response, or one that
/// comes from a write's COMMIT (`DeferredAnswer`).
public enum RouteResult: Sendable {
    case json(HTTPStatus, JSONValue)
    case raw(HTTPResponse)
    case later(DeferredAnswer)
}

/// An answer made once a write has committed, with no thread waiting for it (the day
/// submission: planned on the polling thread, stored by the writer's group commit, answered
/// from there). Two steps, each on the thread it belongs to:
/// - `start` queues the work and is handed `committed`, which the work calls exactly once on
///   the writer thread right after its COMMIT (or its refusal) with what it produced;
/// - `answer` turns that into the route's result later, on the thread that sends the response
///   (so whatever follows the COMMIT, such as refreshing a cache, does not hold up the writer).
public struct DeferredAnswer: Sendable {
    /// Runs the work; `deliver` is called once with a builder of the result.
    let run: @Sendable (_ deliver: @escaping @Sendable (_ build: @escaping @Sendable () throws -> RouteResult) -> Void) -> Void

    public init<Committed: Sendable>(start: @escaping @Sendable (_ committed: @escaping @Sendable (Committed) -> Void) -> Void,
                                     answer: @escaping @Sendable (Committed) throws -> RouteResult) {
        run = { deliver in start { value in deliver { try answer(value) } } }
    }
}
