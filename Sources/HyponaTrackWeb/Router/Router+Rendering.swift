import Foundation
import HTJSON
import HTTPServer
import HyponaTrackDomain

/// The last steps of `Router.handle`: rendering an API result or a problem for the request's
/// site, and finishing every answer alike (the bucket settled, the page headers, metrics, log).
extension Router {
    // MARK: render

    /// An API handler's result as HTTP; a failure as the request's problem.
    func render(_ outcome: Result<RouteResult, any Error>, _ exchange: Exchange) -> HTTPResponse {
        do {
            switch try outcome.get() {
            case .json(let status, let value): return APIResponse.json(status, value)
            case .raw(let response): return response
            case .later:
                // A later answer whose answer is later again: a handler bug (logged as one).
                struct AnswerLaterAgain: Error {}
                throw AnswerLaterAgain()
            }
        } catch {
            return render(error, exchange)
        }
    }

    /// The one error mapping, rendered for the request's site: a JSON problem for the API; for a
    /// page family its error page, or, when a page needs someone signed in, the way to sign in
    /// (a GET is sent there; a form posted without a live sign-in is refused, 403, since there
    /// is nothing to send a POST to).
    func render(_ error: any Error, _ exchange: Exchange) -> HTTPResponse {
        let problem: Problem
        if let known = Problem.of(error) {
            problem = known
        } else {
            // Anything else is a bug or the database failing, never the caller's mistake.
            logger.error("request failed", ["route": exchange.routeName, "request_id": exchange.http.requestID, "error": "\(error)"])
            problem = .internalError
        }
        guard let family = exchange.family, let web = exchange.web else { return APIResponse.error(problem.api) }
        if let location = problem.redirect, exchange.http.method == .get { return WebResponse.redirect(location) }
        guard problem.needsSignIn else { return family.page(problem, web, exchange.session) }
        if exchange.http.method == .get { return WebResponse.redirect(family.signInLocation(exchange.http)) }
        var refused = problem
        refused.api.status = 403
        return family.page(refused, web, exchange.session)
    }

    // MARK: finish

    /// Every answer, API or page, now or from a commit: a 4xx takes a token from an anonymous
    /// route's bucket; a page carries the page headers (a CSV or PDF from the console too) and a
    /// new sign-in form token's cookie; the request is counted and logged.
    func finish(_ response: HTTPResponse, _ exchange: Exchange) -> HTTPResponse {
        var response = response
        exchange.limit?.settle(exchange.clientIP, status: response.status.rawValue)
        if let web = exchange.web {
            if let fresh = exchange.newSignInForm {
                // A browser-session cookie for every path: the console's and the check-in's sign-in share it.
                response.headers.add(name: "Set-Cookie", value: WebResponse.cookie(SignInFormToken.cookieName, fresh.cookieValue,
                                                                                   secure: web.isSecure))
            }
            response = WebResponse.withSecurityHeaders(response)
        }
        let elapsed = DispatchTime.now().uptimeNanoseconds - exchange.started
        let method = exchange.http.method.rawValue
        metrics.requestCompleted(method: method, route: exchange.routeName, status: response.status.rawValue, seconds: Double(elapsed) / 1e9)
        logger.info("request", ["method": method, "route": exchange.routeName, "status": String(response.status.rawValue),
                                "duration_ms": Self.milliseconds(nanoseconds: elapsed), "ip": exchange.clientIP,
                                "request_id": exchange.http.requestID, "actor": exchange.caller.map(Self.actorKind) ?? "-"])
        return response
    }

    /// `12.34`: milliseconds with two decimals (`String(format:)` costs more than the rest of the log line).
    static func milliseconds(nanoseconds: UInt64) -> String {
        let hundredths = (nanoseconds + 5_000) / 10_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Study IDs are pseudonymous but logs do not need them: staff by name, patients by kind.
    static func actorKind(_ caller: Caller) -> String {
        switch caller {
        case .staff(let name, _): return "staff:\(name)"
        case .patient: return "patient"
        }
    }
}

/// Checks a bearer token (the API's authentication step).
struct TokenCheck: Sendable {
    let database: Database
    let clock: any ServerClock
    /// When patient tokens stop working (nil: they do not expire; in-process tests).
    let patientTokens: PatientTokenLifetime?

    func principal(_ http: HTTPRequest) throws -> Principal {
        guard let token = AuthorizationHeader.bearerToken(http.headers["authorization"]) else { throw APIError.unauthenticated }
        switch try Authenticator.check(database, bearer: token, now: clock.now(), patientTokens: patientTokens) {
        case .valid(let principal): return principal
        case .expired: throw APIError.expiredToken
        case .invalid: throw APIError.unauthenticated
        }
    }
}

/// The API's answers: JSON, never cached; a problem in the docs/product.md error shape.
enum APIResponse {
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

extension PageFamily {
    /// The family's error page for an answer the HTTP server gives before the router runs (an
    /// unreadable path, a body over the limit, the stopping 503), with the page headers and the
    /// server's status and `Retry-After`. No session is looked up: a polling thread asks.
    func page(for refusal: HTTPServerRefusal, trustedProxies: Set<String>) -> HTTPResponse {
        let http = HTTPRequest(method: .get, path: refusal.rawPath, headers: refusal.headers, clientAddress: refusal.clientAddress)
        let request = WebRequest(http, trustedProxies: trustedProxies)
        let words: @Sendable (Language) -> String = switch refusal.code {
        case "invalid_value":
            { $0.s("The address of this page cannot be read. Check the link, or go back.",
                   "Die Adresse dieser Seite ist nicht lesbar. Bitte den Link prüfen oder zurückgehen.") }
        case "too_large":
            { $0.s("The form is larger than the server accepts. Shorten what you typed and send it again.",
                   "Das Formular ist größer, als der Server annimmt. Bitte den Text kürzen und erneut senden.") }
        default:
            { $0.s("The server cannot take this request just now. Try again in a moment.",
                   "Der Server kann die Anfrage gerade nicht annehmen. Bitte gleich erneut versuchen.") }
        }
        let retryAfter = refusal.response.headers["retry-after"].flatMap { Int($0) }
        let problem = Problem(APIError(status: refusal.status.rawValue, code: refusal.code, message: words(.en), retryAfter: retryAfter),
                              words: words)
        return WebResponse.withSecurityHeaders(page(problem, request, nil))
    }
}
