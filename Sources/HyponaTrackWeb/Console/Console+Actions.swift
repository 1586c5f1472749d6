import HTJSON
import HTML
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

/// The console's form targets: sign-in and sign-out, lab entry, acknowledge and resolve. A
/// success answers 303 to the page to show next (a resent form repeats nothing); a refused
/// value shows the page again with the message next to its field and nothing changed.
extension Console {
    func signInPage(_ ctx: PageContext) -> HTTPResponse {
        if ctx.session != nil { return WebResponse.redirect(Self.prefix) }
        return WebResponse.page(.ok, signInForm(ctx, next: nextPath(ctx.query("next"))).render())
    }

    /// The sign-in page: the provider's link when single sign-on is configured, the password
    /// form unless `console.passwordSignIn` is false.
    func signInForm(_ ctx: PageContext, next: String, name: String = "") -> SignInPage {
        var page = SignInPage(layout: ConsoleLayout(request: ctx.request, session: nil), next: next, formToken: ctx.signInFormToken, name: name)
        page.provider = singleSignOn?.displayName
        page.passwordForm = passwordSignIn
        return page
    }

    func signIn(_ ctx: PageContext) throws -> HTTPResponse {
        let t = ConsoleText(ctx.language)
        let next = nextPath(ctx.form["next"])
        var page = signInForm(ctx, next: next, name: ctx.form["name"] ?? "")
        guard passwordSignIn else {
            page.message = t.s("Sign-in with a password is switched off: use the sign-in service.",
                               "Die Anmeldung mit Passwort ist abgeschaltet: bitte den Anmeldedienst verwenden.")
            return WebResponse.page(.forbidden, page.render())
        }
        if let ticket = ctx.form["ticket"], !ticket.isEmpty { return try signInCode(ctx, ticket: ticket, page: page) }
        guard let name = ctx.field("name"), StaffDirectory.isValidName(name) else {
            page.message = t.s("Enter your staff name.", "Bitte den Staff-Namen eingeben.")
            page.field = "name"
            return WebResponse.page(.badRequest, page.render())
        }
        guard let password = ctx.form["password"], !password.isEmpty, password.count <= StaffPasswords.maximumLength else {
            page.message = t.s("Enter your password.", "Bitte das Passwort eingeben.")
            page.field = "password"
            return WebResponse.page(.badRequest, page.render())
        }
        do {
            let signedIn: SignedIn
            switch try sessions.signIn(SignIn(name: name, password: password, ip: ctx.request.clientIP)) {
            case .signedIn(let s): signedIn = s
            case .needsCode(let ticket):
                page.ticket = ticket
                return WebResponse.page(.ok, page.render())
            }
            let cookie = WebResponse.cookie("ht_session", signedIn.cookieValue, secure: ctx.request.isSecure)
            return WebResponse.redirect(next, cookies: [cookie])
        } catch DomainError.signIn(.wrongCredentials) {
            page.message = t.wrongCredentials
            return WebResponse.page(.unauthorized, page.render())
        } catch DomainError.signIn(.locked(let seconds)) {
            page.message = t.s("Too many failed sign-ins for this name. Try again in \(max(1, seconds / 60)) min.",
                               "Zu viele fehlgeschlagene Anmeldungen für diesen Namen. In \(max(1, seconds / 60)) min erneut versuchen.")
            return Self.retryLater(.tooManyRequests, page, seconds)
        } catch DomainError.busy(.signIns, let seconds) {
            page.message = t.s("Too many sign-ins at this moment. Try again in a few seconds.",
                               "Gerade melden sich zu viele an. Bitte in einigen Sekunden erneut versuchen.")
            return Self.retryLater(.serviceUnavailable, page, seconds)
        }
    }

    /// The code step: a TOTP or recovery code with the ticket the password step issued.
    func signInCode(_ ctx: PageContext, ticket: String, page: SignInPage) throws -> HTTPResponse {
        let t = ConsoleText(ctx.language)
        var page = page
        page.ticket = ticket
        guard let code = ctx.field("code"), code.count <= 32 else {
            page.message = t.s("Enter the code from your authenticator app.", "Bitte den Code aus der Authenticator-App eingeben.")
            return WebResponse.page(.badRequest, page.render())
        }
        do {
            let signedIn = try sessions.signIn(SignInCode(ticket: ticket, code: code, ip: ctx.request.clientIP))
            let cookie = WebResponse.cookie("ht_session", signedIn.cookieValue, secure: ctx.request.isSecure)
            return WebResponse.redirect(page.next, cookies: [cookie])
        } catch DomainError.signIn(.wrongCode) {
            page.message = t.s("The code is not right, or was used already.", "Der Code stimmt nicht oder wurde schon verwendet.")
            return WebResponse.page(.unauthorized, page.render())
        } catch DomainError.signIn(.wrongCredentials) {
            // The ticket is unknown or older than five minutes: back to the password.
            page.ticket = nil
            page.message = t.s("The sign-in took too long. Enter your password again.",
                               "Die Anmeldung hat zu lange gedauert. Bitte das Passwort erneut eingeben.")
            return WebResponse.page(.unauthorized, page.render())
        } catch DomainError.signIn(.locked(let seconds)) {
            page.ticket = nil
            page.message = t.s("Too many failed sign-ins for this name. Try again in \(max(1, seconds / 60)) min.",
                               "Zu viele fehlgeschlagene Anmeldungen für diesen Namen. In \(max(1, seconds / 60)) min erneut versuchen.")
            return Self.retryLater(.tooManyRequests, page, seconds)
        }
    }

    /// The sign-in page with its message, `status` and `Retry-After`.
    static func retryLater(_ status: HTTPStatus, _ page: SignInPage, _ seconds: Int) -> HTTPResponse {
        var r = WebResponse.page(status, page.render())
        r.headers.add(name: "Retry-After", value: String(seconds))
        return r
    }

    func signOut(_ ctx: PageContext) throws -> HTTPResponse {
        if let s = ctx.session { try sessions.signOut(s, ip: ctx.request.clientIP) }
        let clear = WebResponse.cookie("ht_session", "", maxAge: 0, secure: ctx.request.isSecure)
        if ctx.session?.viaProvider == true, let location = singleSignOn?.logoutLocation() {
            return providerSignOutPage(ctx, location: location, cookies: [clear])
        }
        return WebResponse.redirect("/console/login", cookies: [clear])
    }

    /// `next` when it is a console page, else the board.
    func nextPath(_ next: String?) -> String {
        guard let next, PageFamily.isLocalPath(next, prefix: Self.prefix), !next.hasPrefix("/console/login") else { return Self.prefix }
        return next
    }

    func addLab(_ ctx: PageContext) throws -> HTTPResponse {
        let studyId = ctx.parameter("studyId")
        let detail = try study.patients.show(studyId: studyId)            // 404 for an unknown patient
        let zone = study.zone(detail.summary.patient.profile)
        let t = ConsoleText(ctx.language)
        do {
            var time: Timestamp?
            if let text = ctx.field("time") {
                guard let parsed = FormInput.localDateTime(text, zone: zone) else {
                    throw FieldError.invalid("time", t.s("a date and time such as 2026-12-01T08:30", "Datum und Uhrzeit wie 2026-12-01T08:30"))
                }
                time = parsed
            }
            let command = try decodeBody(FormInput.body(ctx.form, [("sodium", .number)])) { r throws(FieldError) in
                AddLab(studyId: studyId, sodium: try r.required(PatientBodies.sodium.required), time: time, actor: ctx.actor)
            }
            _ = try study.corrections.addLab(command)
            return WebResponse.redirect("/console/patients/\(URLComponentEncoding.segment(studyId))#labs")
        } catch let e as FieldError {
            return try refused(ctx, form: "lab", fields: ["sodium", "time"], e) { try patientPage(ctx, errors: $0) }
        } catch DomainError.rejected(let e) {
            return try refused(ctx, form: "lab", fields: ["sodium", "time"], e) { try patientPage(ctx, errors: $0) }
        } catch DomainError.limitReached(let list, let limit) {
            let refusal = FormInput.refusal(limitReached: list, limit: limit, at: "sodium", language: ctx.language)
            return try refused(ctx, form: "lab", fields: ["sodium", "time"], refusal, status: .conflict) { try patientPage(ctx, errors: $0) }
        } catch DomainError.conflict(_, let field, let problem) {
            // A withdrawn patient: said at the form, in the page's language, nothing stored.
            let refusal = FormInput.refusal(conflict: problem, field: field, fallback: "sodium", language: ctx.language)
            return try refused(ctx, form: "lab", fields: ["sodium", "time"], refusal, status: .conflict) { try patientPage(ctx, errors: $0) }
        }
    }

    func acknowledge(_ ctx: PageContext) throws -> HTTPResponse {
        let id = try alertId(ctx)
        do {
            let note = try decodeBody(FormInput.body(ctx.form, [("note", .text)])) { r throws(FieldError) in try r.optional(AlertBodies.note) }
            let alert = try study.alerts.acknowledge(AcknowledgeAlert(alertId: id, note: note, actor: ctx.actor))
            return WebResponse.redirect(afterAlert(ctx, alert))
        } catch let e as FieldError {
            return try refusedAlert(ctx, form: "ack-\(id)", e)
        }
    }

    func resolve(_ ctx: PageContext) throws -> HTTPResponse {
        let id = try alertId(ctx)
        let t = ConsoleText(ctx.language)
        do {
            let body = FormInput.body(ctx.form, [("note", .text), ("sodium", .number)])
            if case .object(let o) = body, o["note"] == nil {
                throw FieldError.invalid("note", t.s("a note is required to resolve an alert", "zum Erledigen ist eine Notiz nötig"))
            }
            let command = try decodeBody(body) { r throws(FieldError) in
                ResolveAlert(alertId: id, note: try r.required(AlertBodies.note.required), sodium: try r.optional(AlertBodies.sodium),
                                    actor: ctx.actor)
            }
            let alert = try study.alerts.resolve(command)
            return WebResponse.redirect(afterAlert(ctx, alert))
        } catch let e as FieldError {
            return try refusedAlert(ctx, form: "resolve-\(id)", e)
        }
    }

    private func alertId(_ ctx: PageContext) throws -> Int64 {
        guard let id = Int64(ctx.parameter("alertId")), id > 0 else { throw PageFailure.notFound(ctx.request.http.path, ctx.language) }
        return id
    }

    /// The patient's page, or the inbox with the filters and page the form was sent from.
    private func afterAlert(_ ctx: PageContext, _ alert: AlertView) -> String {
        ctx.form["back"] == "patient" ? "/console/patients/\(URLComponentEncoding.segment(alert.studyId))#alert-\(alert.id)"
            : InboxFilter.returned(ctx.form[InboxFilter.formFieldName], language: ctx.language).href + "#alert-\(alert.id)"
    }

    /// The alert's page again (inbox or patient) with the message at the field.
    private func refusedAlert(_ ctx: PageContext, form: String, _ e: FieldError) throws -> HTTPResponse {
        if ctx.form["back"] == "patient", let studyId = try alertStudyId(ctx) {
            let patientCtx = PageContext(request: ctx.request, parameters: ["studyId": studyId], session: ctx.session, form: ctx.form)
            return try refused(ctx, form: form, fields: ["note", "sodium"], e) { try patientPage(patientCtx, errors: $0) }
        }
        return try refused(ctx, form: form, fields: ["note", "sodium"], e) { try inboxPage(ctx, errors: $0) }
    }

    private func alertStudyId(_ ctx: PageContext) throws -> String? {
        let id = try alertId(ctx)
        return try study.alerts.alert(id: id)?.studyId
    }

    func refused(_ ctx: PageContext, form: String, fields: [String], _ e: FieldError, status: HTTPStatus = .badRequest,
                         render: (FormErrors) throws -> HTML) throws -> HTTPResponse {
        try refused(ctx, form: form, fields: fields, FormInput.refusal(e, fallback: fields[0], language: ctx.language), status: status,
                    render: render)
    }

    /// The page again (`render`) with `refusal`'s message at its field of `form` and what was typed.
    func refused(_ ctx: PageContext, form: String, fields: [String], _ refusal: (field: String, message: String), status: HTTPStatus,
                         render: (FormErrors) throws -> HTML) throws -> HTTPResponse {
        var errors = FormErrors()
        errors.messages[form] = [refusal.field: refusal.message]
        errors.values[form] = FormInput.echo(ctx.form, fields)
        return WebResponse.page(status, try render(errors))
    }
}
