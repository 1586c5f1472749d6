import HTJSON
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

/// The one error protocol of the router: whatever a step or a handler throws becomes a
/// `Problem` here, once, and the request's site renders it — a JSON problem under `/v1/`
/// (`api`), a page in its family's layout under `/console/` and `/app/` (`words`, in the page's
/// language), or, for a page asking for a signed-in person, the way to sign in.
struct Problem: Error, Sendable {
    /// What the API answers: status, code, English message, field, `Retry-After`, `Allow`.
    var api: APIError
    /// What a page says, in its language.
    var words: @Sendable (Language) -> String
    /// No one is signed in where a route needs someone: a page's GET is sent to sign in.
    var needsSignIn = false
    /// A page's GET is sent here instead (`console.requireMFA`: the set-up page first).
    var redirect: String?

    var status: HTTPStatus { HTTPStatus(rawValue: api.status) }

    init(_ api: APIError, words: @escaping @Sendable (Language) -> String, needsSignIn: Bool = false) {
        self.api = api
        self.words = words
        self.needsSignIn = needsSignIn
    }

    /// A problem a page words the same in both languages as the API (an error of the API's).
    init(_ api: APIError) { self.init(api, words: { _ in api.message }) }

    /// The mapping, once. Nil for an error that is nobody's input: a bug or the database
    /// failing (the router logs it and answers 500).
    static func of(_ error: any Error) -> Problem? {
        switch error {
        case let problem as Problem: return problem
        case let api as APIError: return Problem(api)
        case let field as FieldError:
            return Problem(.from(field), words: { FieldMessages($0).text(field, for: nil) })
        case let failure as PageFailure:
            // Thrown by a page, already in its language.
            return Problem(APIError(status: failure.status.rawValue, code: Self.code(failure.status), message: failure.message,
                                    retryAfter: failure.retryAfter), words: { _ in failure.message })
        case let domain as DomainError:
            let api = APIError(domain)
            // A conflict a page did not catch (acknowledging an alert a colleague acknowledged) or
            // a record its address names that does not exist: worded as the forms word it.
            return Problem(api, words: { language in
                switch domain {
                case .conflict(_, _, let problem): FieldMessages(language).text(problem)
                case .notFound(_, let missing?): FieldMessages(language).text(missing)
                default: api.message
                }
            })
        default: return nil
        }
    }

    /// 500: the server's fault, logged, never the caller's input.
    static let internalError = Problem(APIError(status: 500, code: "internal", message: "the server could not complete the request; it is logged"),
                                       words: { $0.s("The server could not complete the request; it is logged.",
                                                     "Der Server konnte die Anfrage nicht ausführen; der Fehler ist protokolliert.") })

    /// The API's code for a status a page chose.
    private static func code(_ status: HTTPStatus) -> String {
        switch status.rawValue {
        case 400: "invalid_value"
        case 401: "unauthenticated"
        case 403: "forbidden"
        case 404: "not_found"
        case 405: "method_not_allowed"
        case 409: "conflict"
        case 429: "rate_limited"
        case 503: "unavailable"
        default: status.rawValue >= 500 ? "internal" : "invalid_request"
        }
    }
}

/// An error page's content, drawn by the page family's layout.
public struct PageFailure: Sendable, Error {
    public var status: HTTPStatus
    public var message: String
    public var retryAfter: Int?

    public init(_ status: HTTPStatus, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.retryAfter = retryAfter
    }

    /// 404 for an address no page answers, or one whose record number cannot be one
    /// (`/console/alerts/x/resolve`), in the page's `language`.
    static func notFound(_ path: String, _ language: Language) -> PageFailure {
        PageFailure(.notFound, language.s("There is no page \(path.prefix(200)).", "Die Seite \(path.prefix(200)) gibt es nicht."))
    }
}
