import Crypto
import Foundation
import HTML
import HTTPServer
import HyponaTrackDomain

/// Serves a family of pages (the console): routes them, finds the session behind the cookie,
/// refuses a POST without the session's CSRF token or from another origin, checks the role,
/// turns errors into pages, and counts and logs like the API.
public final class WebHandler: Sendable {
    let routes: [PageRoute]
    /// Staff sessions (`ht_session`); nil for a family without staff pages.
    let sessions: SessionService?
    /// Patients of the web check-in (`ht_patient`); nil for a family without patient pages.
    let patients: PatientWebSessions?
    let trustedProxies: Set<String>
    let metrics: Metrics
    let logger: Logger
    /// Where a request without a session is sent (`/console/login`).
    let signInPath: String
    /// Draws an error page in the family's layout.
    let errorPage: @Sendable (PageFailure, WebRequest, WebSession?) -> HTML

    init(routes: [PageRoute], sessions: SessionService? = nil, patients: PatientWebSessions? = nil, trustedProxies: Set<String>,
         metrics: Metrics, logger: Logger, signInPath: String,
         errorPage: @escaping @Sendable (PageFailure, WebRequest, WebSession?) -> HTML) {
        self.routes = routes
        self.sessions = sessions
        self.patients = patients
        self.trustedProxies = trustedProxies
        self.metrics = metrics
        self.logger = logger
        self.signInPath = signInPath
        self.errorPage = errorPage
    }

    /// Whether a path belongs to this family.
    func serves(_ path: String, prefixes: [String]) -> Bool { prefixes.contains { path == $0.dropLast() || path.hasPrefix($0) } }

    public func handle(_ http: HTTPRequest, _ responder: HTTPResponder) { responder.respond(response(to: http)) }

    func response(to http: HTTPRequest) -> HTTPResponse {
        let started = DispatchTime.now().uptimeNanoseconds
        let request = WebRequest(http, trustedProxies: trustedProxies)
        var routeName = "unmatched"
        var session: WebSession?
        var limited: AnonymousLimit?
        var signInForm: SignInFormToken?, newSignInForm: SignInFormToken?
        var response: HTTPResponse
        do {
            let (route, params) = try resolve(http, request.language)
            routeName = route.path.text
            if let limit = route.limit {
                if let seconds = limit.limiter.admit(request.clientIP) {
                    limit.refused(request.clientIP)
                    throw PageFailure(.tooManyRequests, request.language.s("Too many attempts from your address. Try again in a minute.",
                                                                 "Zu viele Versuche von Ihrer Adresse. Bitte in einer Minute erneut versuchen."),
                                      retryAfter: seconds)
                }
                limited = limit
            }
            // A sign-in form's pre-session token: the browser's, or a new one the answer sets.
            if route.access == .signIn || (route.access == .anonymous && http.method == .post) {
                signInForm = SignInFormToken(cookie: request.cookies[SignInFormToken.cookieName])
                if signInForm == nil && http.method != .post {
                    signInForm = try SignInFormToken.fresh()
                    newSignInForm = signInForm
                }
            }
            if let sessions, let cookie = request.cookies["ht_session"] {
                // A page's own automatic reload (`auto=1`, the board's refresh) is no activity.
                session = try sessions.session(cookie: cookie, touch: http.query[BoardPage.autoRefreshParameter] != "1")
            }
            var patient: PatientWebSession?
            if let patients, let token = request.cookies["ht_patient"] { patient = try patients.session(token: token) }
            if route.access == .patient && patient == nil {
                if http.method == .get { return Self.finish(WebResponse.redirect(signInPath), self, request, routeName, started, nil) }
                throw PageFailure(.forbidden, request.language.s("You are signed out. Activate again with your study ID and code.",
                                                        "Sie sind abgemeldet. Bitte mit Studien-ID und Code erneut aktivieren."))
            }
            if case .staff(let needed) = route.access {
                guard let s = session else {
                    if http.method == .get { return Self.finish(WebResponse.redirect(signInRedirect(http)), self, request, routeName, started, nil) }
                    throw PageFailure(.forbidden, request.language.s("Your session has ended. Sign in again.",
                                                            "Ihre Sitzung ist beendet. Bitte erneut anmelden."))
                }
                guard needed.allows(s.role) else {
                    let role = Vocabulary(language: request.language).role(s.role)
                    throw PageFailure(.forbidden, request.language.s("Your role (\(role)) cannot do this.",
                                                            "Ihre Rolle (\(role)) darf das nicht."))
                }
            }
            var form = HTTPQueryParameters()
            if http.method == .post {
                try checkOrigin(request)
                do { form = try request.form() } catch {
                    throw PageFailure(.badRequest, request.language.s("The form could not be read: \(error.message)",
                                                             "Das Formular ist nicht lesbar: \(error.message)"))
                }
                // A sign-out without a live session: no token to bind to, and nothing to change.
                // A form posted before anyone is signed in needs the pre-session token; without
                // its cookie (another site's form, cookies off, a form older than the browser
                // session) it is refused like a missing token.
                let expected: String? = switch route.access {
                case .anonymous, .signIn: signInForm?.formToken ?? ""
                case .patient, .patientSignOut: patient?.csrfToken
                case .staff, .staffSignOut: session?.csrfToken
                }
                if let expected {
                    guard !expected.isEmpty, let token = form["csrf"], Crypto.constantTimeEquals(Array(token.utf8), Array(expected.utf8)) else {
                        throw PageFailure(.forbidden, request.language.s(
                                                                "The form is missing its security token. Reload the page and try again.",
                                                                "Dem Formular fehlt das Sicherheitsmerkmal. Seite neu laden und erneut versuchen."))
                    }
                }
            }
            var context = PageContext(request: request, parameters: params, session: session, form: form)
            context.patient = patient
            context.signInFormToken = signInForm?.formToken
            response = try route.handler(context)
        } catch let failure as PageFailure {
            response = page(failure, request, session)
        } catch let error as DomainError {
            let answer = error.httpAnswer
            // A conflict a page did not catch (acknowledging an alert a colleague acknowledged) or a
            // record its address names that does not exist: in the page's language, worded as the
            // forms word it, not the API's English.
            let words = FieldMessages(request.language)
            let message = switch error {
            case .conflict(_, _, let problem): words.text(problem)
            case .notFound(_, let missing?): words.text(missing)
            default: answer.message
            }
            response = page(PageFailure(answer.status, message, retryAfter: answer.retryAfter), request, session)
        } catch {
            logger.error("page failed", ["route": routeName, "request_id": http.requestID, "error": "\(error)"])
            response = page(PageFailure(.internalServerError, request.language.s(
                                                                       "The server could not complete the request; it is logged.",
                                                                       "Der Server konnte die Anfrage nicht ausführen; der Fehler ist protokolliert.")),
                            request, session)
        }
        limited?.settle(request.clientIP, status: response.status.rawValue)
        if let newSignInForm {
            // A browser-session cookie for every path: the console's and the check-in's sign-in share it.
            response.headers.add(name: "Set-Cookie", value: WebResponse.cookie(SignInFormToken.cookieName, newSignInForm.cookieValue,
                                                                               secure: request.isSecure))
        }
        return Self.finish(response, self, request, routeName, started, session)
    }

    private static func finish(_ response: HTTPResponse, _ handler: WebHandler, _ request: WebRequest, _ route: String,
                               _ started: UInt64, _ session: WebSession?) -> HTTPResponse {
        // Whatever a route answered (a CSV or PDF download too) carries the page headers.
        let response = WebResponse.withSecurityHeaders(response)
        let elapsed = DispatchTime.now().uptimeNanoseconds - started
        handler.metrics.requestCompleted(method: request.http.method.rawValue, route: route, status: response.status.rawValue,
                                         seconds: Double(elapsed) / 1e9)
        handler.logger.info("request", ["method": request.http.method.rawValue, "route": route,
                                        "status": String(response.status.rawValue),
                                        "duration_ms": APIHandler.milliseconds(nanoseconds: elapsed), "ip": request.clientIP,
                                        "request_id": request.http.requestID, "actor": session?.actor ?? "-"])
        return response
    }

    /// The family's error page for an answer the HTTP server gives before this handler runs
    /// (an unreadable path, a body over the limit, the stopping 503), with the page headers and
    /// the server's status and `Retry-After`. No session is looked up: a polling thread asks.
    func page(for refusal: HTTPServerRefusal) -> HTTPResponse {
        let http = HTTPRequest(method: .get, path: refusal.rawPath, headers: refusal.headers, clientAddress: refusal.clientAddress)
        let request = WebRequest(http, trustedProxies: trustedProxies)
        let t = request.language
        let message: String
        switch refusal.code {
        case "invalid_value":
            message = t.s("The address of this page cannot be read. Check the link, or go back.",
                          "Die Adresse dieser Seite ist nicht lesbar. Bitte den Link prüfen oder zurückgehen.")
        case "too_large":
            message = t.s("The form is larger than the server accepts. Shorten what you typed and send it again.",
                          "Das Formular ist größer, als der Server annimmt. Bitte den Text kürzen und erneut senden.")
        default:
            message = t.s("The server cannot take this request just now. Try again in a moment.",
                          "Der Server kann die Anfrage gerade nicht annehmen. Bitte gleich erneut versuchen.")
        }
        return page(PageFailure(refusal.status, message, retryAfter: refusal.response.headers["retry-after"].flatMap { Int($0) }),
                    request, nil)
    }

    private func page(_ failure: PageFailure, _ request: WebRequest, _ session: WebSession?) -> HTTPResponse {
        var r = WebResponse.page(failure.status, errorPage(failure, request, session))
        if let after = failure.retryAfter { r.headers.add(name: "Retry-After", value: String(after)) }
        return r
    }

    private func resolve(_ http: HTTPRequest, _ language: Language) throws -> (PageRoute, [String: String]) {
        var allowed: [String] = []
        let path = PathTemplate.Segments(http.path)
        for route in routes {
            guard let params = route.path.match(path) else { continue }
            if route.method.serves(http.method) { return (route, params) }
            allowed.append(route.method.rawValue)
        }
        if allowed.isEmpty { throw PageFailure.notFound(http.path, language) }
        throw PageFailure(.methodNotAllowed, "Allowed: \(allowed.joined(separator: ", "))")
    }

    /// `/console/login?next=/console/patients/P-1`: back where the member was after signing in.
    private func signInRedirect(_ http: HTTPRequest) -> String {
        let back = http.rawPath + (http.rawQuery.map { "?" + $0 } ?? "")
        return signInPath + "?next=" + URLComponentEncoding.queryValue(back)
    }

    /// A form posted from another site is refused (with the SameSite cookies and the CSRF
    /// tokens, a third guard): the browser's fetch metadata and `Origin` must name this site.
    private func checkOrigin(_ request: WebRequest) throws {
        let host = request.http.headers["x-forwarded-host"].flatMap { trustedProxies.contains(request.http.clientAddress) ? $0 : nil }
            ?? request.http.headers["host"] ?? ""
        if let refused = FormSource.refusal(origin: request.http.headers["origin"], fetchSite: request.http.headers["sec-fetch-site"],
                                            host: host) {
            throw PageFailure(.forbidden, request.language.s("This form was sent from another site (\(refused.prefix(100))); nothing was changed.",
                                                             "Dieses Formular kam von einer anderen Website (\(refused.prefix(100))); es wurde nichts geändert."))
        }
    }

    /// Whether `next` is a page of ours to return to after signing in (never another site).
    static func isLocalPath(_ next: String, prefix: String) -> Bool {
        next.hasPrefix(prefix) && !next.hasPrefix("//") && !next.contains("\\") && !next.unicodeScalars.contains { $0.value < 0x20 }
    }
}
