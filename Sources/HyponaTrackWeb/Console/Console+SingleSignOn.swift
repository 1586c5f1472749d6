import HTML
import HTTPServer
import HyponaTrackDomain

/// Single sign-on through the OpenID provider (docs/product.md, third round, T, settled):
/// `GET /console/oidc/start` (a link on the sign-in page) sets the pre-session cookie and sends
/// the browser to the provider; `GET /console/oidc/callback` finishes, sets the session cookie
/// and answers a small page that continues to the board by a meta refresh and a link, so the
/// `SameSite=Strict` session cookie goes along on a same-site navigation even when the
/// provider lives on another site. A refusal is a page that says why.
extension Console {
    /// The pre-session cookie: `SameSite=Lax`, as the provider's redirect back is a cross-site
    /// top-level GET that must carry it; only for the callback's path; ten minutes.
    static let preSessionCookie = "ht_oidc"
    static let oidcPath = "/console/oidc/"

    func singleSignOnRoutes() -> [Route] {
        [
            Route(.get, "/console/oidc/start", access: .anonymous, touches: .system, limit: signInLimit) { ctx in try startSingleSignOn(ctx) },
            Route(.get, ServerConfiguration.SingleSignOn.callbackPath, access: .anonymous, touches: .system, limit: signInLimit) { ctx in
                try finishSingleSignOn(ctx)
            },
        ]
    }

    func startSingleSignOn(_ ctx: PageContext) throws -> HTTPResponse {
        guard let singleSignOn else { throw PageFailure.notFound(ctx.request.http.path, ctx.language) }
        do {
            let start = try singleSignOn.start(next: nextPath(ctx.query("next")))
            return WebResponse.redirect(start.location, cookies: [
                WebResponse.cookie(Self.preSessionCookie, start.cookieValue, path: Self.oidcPath, maxAge: 600, secure: ctx.request.isSecure,
                                   sameSite: "Lax"),
            ])
        } catch {
            return refusalPage(ctx, error)
        }
    }

    func finishSingleSignOn(_ ctx: PageContext) throws -> HTTPResponse {
        guard let singleSignOn else { throw PageFailure.notFound(ctx.request.http.path, ctx.language) }
        let clear = WebResponse.cookie(Self.preSessionCookie, "", path: Self.oidcPath, maxAge: 0, secure: ctx.request.isSecure, sameSite: "Lax")
        let callback = SingleSignOnCallback(preSessionCookie: ctx.request.cookies[Self.preSessionCookie], state: ctx.query("state"),
                                            code: ctx.query("code"), error: ctx.query("error"), ip: ctx.request.clientIP)
        do {
            let (signedIn, next) = try singleSignOn.finish(callback)
            let t = ConsoleText(ctx.language)
            let layout = ConsoleLayout(request: ctx.request, session: nil)
            var r = WebResponse.page(.ok, layout.page(t.s("Signed in", "Angemeldet"), """
                <p>\(t.s("Signed in as", "Angemeldet als")) <strong>\(signedIn.session.name)</strong>.</p>
                <p><a href="\(next)" id="continue">\(t.s("Continue to the console", "Weiter zur Konsole"))</a></p>
                """, head: "<meta http-equiv=\"refresh\" content=\"0;url=\(next)\">"))
            r.headers.add(name: "Set-Cookie", value: WebResponse.cookie("ht_session", signedIn.cookieValue, secure: ctx.request.isSecure))
            r.headers.add(name: "Set-Cookie", value: clear)
            return r
        } catch {
            var r = refusalPage(ctx, error)
            r.headers.add(name: "Set-Cookie", value: clear)
            return r
        }
    }

    /// The refusal, said in the member's words, with a way back to the sign-in page.
    func refusalPage(_ ctx: PageContext, _ error: SingleSignOnRefusal) -> HTTPResponse {
        let t = ConsoleText(ctx.language)
        let why: String, status: HTTPStatus
        switch error {
        case .unknownState:
            (why, status) = (t.s("This sign-in was started elsewhere, already used, or took longer than ten minutes. Start again.",
                                 "Diese Anmeldung wurde anderswo begonnen, schon verwendet oder hat länger als zehn Minuten gedauert. Bitte neu beginnen."), .badRequest)
        case .providerError(let code):
            (why, status) = (t.s("The sign-in service did not sign you in (\(code)).", "Der Anmeldedienst hat die Anmeldung nicht bestätigt (\(code))."), .forbidden)
        case .providerUnavailable:
            (why, status) = (t.s("The sign-in service cannot be reached right now. Try again in a few minutes.",
                                 "Der Anmeldedienst ist gerade nicht erreichbar. Bitte in einigen Minuten erneut versuchen."), 502)
        case .invalidToken:
            (why, status) = (t.s("The sign-in service's answer did not pass our checks; you are not signed in.",
                                 "Die Antwort des Anmeldedienstes hat unsere Prüfung nicht bestanden; Sie sind nicht angemeldet."), .forbidden)
        case .invalidUsername:
            (why, status) = (t.s("Your account at the sign-in service has no user name this console can use. Ask the study's administrator.",
                                 "Ihr Konto beim Anmeldedienst hat keinen Benutzernamen, den diese Konsole verwenden kann. Bitte an die Studienadministration wenden."), .forbidden)
        case .noRole:
            (why, status) = (t.s("You are not a member of this study's staff: none of your groups gives a role here. Ask the study's administrator to add you.",
                                 "Sie gehören nicht zum Team dieser Studie: keine Ihrer Gruppen gibt hier eine Rolle. Bitte die Studienadministration, Sie aufzunehmen."), .forbidden)
        case .noSite:
            (why, status) = (t.s("Your groups give a role but no site of this study. Ask the study's administrator.",
                                 "Ihre Gruppen geben eine Rolle, aber keinen Standort dieser Studie. Bitte an die Studienadministration wenden."), .forbidden)
        case .revoked:
            (why, status) = (t.s("Your access to this console has been ended.", "Ihr Zugang zu dieser Konsole wurde beendet."), .forbidden)
        case .boundElsewhere:
            (why, status) = (t.s("This staff name belongs to another account of the sign-in service.",
                                 "Dieser Staff-Name gehört zu einem anderen Konto des Anmeldedienstes."), .forbidden)
        }
        let layout = ConsoleLayout(request: ctx.request, session: nil)
        return WebResponse.page(status, layout.page(t.s("Not signed in", "Nicht angemeldet"), """
            <p class="error" role="alert" id="refusal">\(why)</p>
            <p><a href="/console/login">\(t.s("Back to sign-in", "Zurück zur Anmeldung"))</a></p>
            """))
    }

    /// Sign-out of a member who came through the provider: a page that continues to the
    /// provider's logout (meta refresh and a link; a form POST that redirects off-site would be
    /// blocked by `form-action 'self'`).
    func providerSignOutPage(_ ctx: PageContext, location: String, cookies: [String]) -> HTTPResponse {
        let t = ConsoleText(ctx.language)
        let layout = ConsoleLayout(request: ctx.request, session: nil)
        var r = WebResponse.page(.ok, layout.page(t.s("Signed out", "Abgemeldet"), """
            <p>\(t.s("You are signed out of the console.", "Sie sind von der Konsole abgemeldet."))</p>
            <p><a href="\(location)" id="provider-logout">\(t.s("Sign out of the sign-in service too", "Auch beim Anmeldedienst abmelden"))</a></p>
            """, head: "<meta http-equiv=\"refresh\" content=\"0;url=\(location)\">"))
        for c in cookies { r.headers.add(name: "Set-Cookie", value: c) }
        return r
    }
}
