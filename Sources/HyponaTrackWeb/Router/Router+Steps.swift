import Crypto
import Foundation
import HTJSON
import HTTPServer
import HyponaTrackDomain

/// The steps of `Router.handle`, in their order.
extension Router {
    // MARK: route

    /// The route and its path parameters; the route's name counts and logs the request.
    func resolve(_ http: HTTPRequest, _ exchange: inout Exchange) throws -> (Route, [String: String]) {
        let found = try locate(http)
        exchange.routeName = found.0.template
        return found
    }

    /// The first route whose method and path fit (a GET route serves HEAD too); 404 when no path
    /// fits, 405 when only the method does not.
    func locate(_ http: HTTPRequest) throws -> (Route, [String: String]) {
        var allowed: [String] = []
        let path = PathTemplate.Segments(http.path)
        // Only the routes with as many segments as the path can fit it.
        for index in routesBySegments[path.count] ?? [] {
            let route = routes[index]
            guard let parameters = route.match(path) else { continue }
            if route.method.serves(http.method) { return (route, parameters) }
            allowed.append(route.method.rawValue)
        }
        if allowed.isEmpty {
            throw Problem(.notFound("no such resource: \(http.path.prefix(200))"),
                          words: { PageFailure.notFound(http.path, $0).message })
        }
        let methods = allowed.joined(separator: ", ")
        throw Problem(APIError(status: 405, code: "method_not_allowed", message: "allowed: \(methods)", allow: allowed),
                      words: { $0.s("Allowed: \(methods)", "Erlaubt: \(methods)") })
    }

    // MARK: limit

    /// An anonymous route's per-address bucket: an empty one is answered 429 before anything
    /// else (no token checked, no body read, no database touched).
    func admit(_ route: Route, _ exchange: inout Exchange) throws {
        guard let limit = route.limit else { return }
        if let seconds = limit.limiter.admit(exchange.clientIP) {
            limit.refused(exchange.clientIP)
            throw Problem(.rateLimited(retryAfter: seconds),
                          words: { $0.s("Too many attempts from your address. Try again in a minute.",
                                        "Zu viele Versuche von Ihrer Adresse. Bitte in einer Minute erneut versuchen.") })
        }
        exchange.limit = limit
    }

    // MARK: authenticate

    /// Who is asking: the API's bearer token (routes that need one), or a page family's cookie
    /// (a staff session or a patient's token), and a sign-in form's pre-session token.
    func authenticate(_ route: Route, _ exchange: inout Exchange) throws {
        guard let family = exchange.family, let web = exchange.web else {
            if route.access != .anonymous { exchange.principal = try tokens.principal(exchange.http) }
            return
        }
        if route.access == .signIn || (route.access == .anonymous && exchange.http.method == .post) {
            exchange.signInForm = SignInFormToken(cookie: web.cookies[SignInFormToken.cookieName])
            if exchange.signInForm == nil && exchange.http.method != .post {
                exchange.signInForm = try SignInFormToken.fresh()
                exchange.newSignInForm = exchange.signInForm
            }
        }
        switch family.callers {
        case .staff(let sessions):
            // A page's own automatic reload (`auto=1`, the board's refresh) is no activity.
            if let cookie = web.cookies["ht_session"] {
                exchange.session = try sessions.session(cookie: cookie, touch: exchange.http.query[BoardPage.autoRefreshParameter] != "1")
            }
        case .patients(let patients):
            if let token = web.cookies["ht_patient"] { exchange.patient = try patients.session(token: token) }
        }
    }

    // MARK: authorise

    /// Whether the caller may use the route: the same rule for a token and a cookie.
    func authorise(_ route: Route, _ parameters: [String: String], _ exchange: Exchange) throws {
        switch route.access {
        case .anonymous, .signIn, .staffSignOut, .patientSignOut: return
        case .patient:
            switch exchange.caller {
            case .patient?: return
            case .staff?: throw Problem(.forbidden("this route is for the patient app"))
            case nil:
                throw Problem(.unauthenticated, words: { $0.s("You are signed out. Activate again with your study ID and code.",
                                                              "Sie sind abgemeldet. Bitte mit Studien-ID und Code erneut aktivieren.") },
                              needsSignIn: true)
            }
        case .staff(let needed):
            switch exchange.caller {
            case .staff(let name, let role)?:
                if exchange.session?.mustSetUpSecondFactor == true, !route.template.hasPrefix(SecondFactorPage.path) {
                    var problem = Problem(.forbidden("set up sign-in codes first (console.requireMFA)"), words: {
                        $0.s("Set up sign-in codes first.", "Bitte zuerst die Anmeldecodes einrichten.")
                    })
                    problem.redirect = SecondFactorPage.path
                    throw problem
                }
                // Staff names are unique ignoring case (the `staff.name` column is NOCASE).
                guard needed.allows(role, isSelf: parameters["name"]?.lowercased() == name.lowercased()) else {
                    throw Problem(.forbidden(needed == .adminOrSelf ? "the \(role.rawValue) role can do this only for themself"
                                                                    : "the \(role.rawValue) role cannot do this"),
                                  words: { language in
                                      let word = Vocabulary(language: language).role(role)
                                      return language.s("Your role (\(word)) cannot do this.", "Ihre Rolle (\(word)) darf das nicht.")
                                  })
                }
            case .patient?: throw Problem(.forbidden("this route is for study staff"))
            case nil:
                throw Problem(.unauthenticated, words: { $0.s("Your session has ended. Sign in again.",
                                                              "Ihre Sitzung ist beendet. Bitte erneut anmelden.") },
                              needsSignIn: true)
            }
        }
    }

    // MARK: confine

    /// The scope rule (docs/product.md, third round, S), in this one place for every route of
    /// the table, by what the route declares it touches: a staff member reaches only the
    /// patients of their sites. A route naming a patient, an alert or a proposal is answered
    /// 404 `not_found` — with the very error the record's absence gets, from `SiteService.reach`
    /// — unless the record exists and is within reach, before its handler runs (so nothing is
    /// read, written or audited for it); a list or an export gets the scope to filter its rows
    /// by, narrowed to one site by `?site=CODE`. Runs after the input is read, so a form without
    /// its CSRF token or a body that is not JSON is refused the same whoever it names.
    /// Returns what the route reaches and the member's whole reach (before `?site=`).
    func confine(_ route: Route, _ parameters: [String: String], _ exchange: Exchange) throws -> (reach: SiteScope, member: SiteScope) {
        guard case .staff(let name, let role)? = exchange.caller else { return (.allSites, .allSites) }
        let scope = try sites.scope(staffName: name, role: role)
        switch route.touches {
        case .patient?:
            try sites.reach(studyId: parameters["studyId"] ?? "", scope: scope)
        case .alert?:
            // An id that is no number is no address of an alert: the page or handler says so.
            if let id = Int64(parameters["alertId"] ?? "") { try sites.reach(alertId: id, scope: scope) }
        case .proposal?:
            if let id = Int64(parameters["proposalId"] ?? "") { try sites.reach(proposalId: id, scope: scope) }
        case .list?, .export?:
            // A page's site select sends `site=` for "all sites": no narrowing there.
            if let code = exchange.http.query["site"], !(code.isEmpty && route.isPage) { return (try sites.filter(site: code, scope: scope), scope) }
        case .enrolment?, .ownRecord?, .system?, nil:
            break
        }
        return (scope, scope)
    }

    // MARK: read the input

    /// An API route's JSON body (`.null` for a route that takes none or an upload, whose
    /// handler reads the bytes itself).
    func parseBody(_ http: HTTPRequest, _ route: Route) throws -> JSONValue {
        let type = http.headers.mediaType
        if let accepted = route.uploadTypes {
            guard let type, accepted.contains(type) else {
                throw APIError(status: 415, code: "unsupported_media_type", message: "send the file as one of \(accepted.joined(separator: ", "))")
            }
            return .null
        }
        guard route.requestSchema != nil else { return .null }
        if http.body.isEmpty && type == nil { return .object(JSONObject()) }
        guard type == "application/json" else {
            throw APIError(status: 415, code: "unsupported_media_type", message: "send the body as application/json")
        }
        do { return try JSONParser.parse(http.body) } catch {
            // A well-formed number that cannot be represented (`1e-400` would read as 0) is a
            // wrong value for its field, named like any other.
            if error.kind == .numberOutOfRange { throw APIError.invalid(error.path.isEmpty ? nil : error.path, error.message) }
            throw APIError.invalidJSON("the body is not valid JSON: \(error.description)")
        }
    }

    /// A page's posted form, once it is known to come from one of our pages (fetch metadata and
    /// `Origin`) and to carry the CSRF token of the session it acts in (or, before anyone is
    /// signed in, the sign-in form's pre-session token). Empty for a GET.
    func readForm(_ route: Route, _ exchange: Exchange) throws -> HTTPQueryParameters {
        guard exchange.http.method == .post, let web = exchange.web else { return HTTPQueryParameters() }
        try checkOrigin(web)
        let form: HTTPQueryParameters
        do { form = try web.form() } catch {
            throw PageFailure(.badRequest, web.language.s("The form could not be read: \(error.message)",
                                                          "Das Formular ist nicht lesbar: \(error.message)"))
        }
        // A sign-out without a live session: no token to bind to, and nothing to change. A form
        // posted before anyone is signed in needs the pre-session token; without its cookie
        // (another site's form, cookies off, a form older than the browser session) it is
        // refused like a missing token.
        let expected: String? = switch route.access {
        case .anonymous, .signIn: exchange.signInForm?.formToken ?? ""
        case .patient, .patientSignOut: exchange.patient?.csrfToken
        case .staff, .staffSignOut: exchange.session?.csrfToken
        }
        if let expected {
            // A page's script posting JSON (`POST /app/devices`) carries the token in `X-CSRF-Token`.
            let token = form["csrf"] ?? (web.http.headers.mediaType == "application/json" ? web.http.headers["x-csrf-token"] : nil)
            guard !expected.isEmpty, let token, Crypto.constantTimeEquals(Array(token.utf8), Array(expected.utf8)) else {
                throw PageFailure(.forbidden, web.language.s("The form is missing its security token. Reload the page and try again.",
                                                             "Dem Formular fehlt das Sicherheitsmerkmal. Seite neu laden und erneut versuchen."))
            }
        }
        return form
    }

    /// A form posted from another site is refused (with the SameSite cookies and the CSRF
    /// tokens, a third guard): the browser's fetch metadata and `Origin` must name this site.
    private func checkOrigin(_ web: WebRequest) throws {
        let http = web.http
        if let refused = FormSource.refusal(origin: http.headers["origin"], fetchSite: http.headers["sec-fetch-site"], host: web.host) {
            throw PageFailure(.forbidden, web.language.s("This form was sent from another site (\(refused.prefix(100))); nothing was changed.",
                                                         "Dieses Formular kam von einer anderen Website (\(refused.prefix(100))); es wurde nichts geändert."))
        }
    }
}
