import HTJSON
import HTML
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain
import HyponaTrackKit

/// Managing patients from the console (docs/product.md, third round, C): enrol, edit the
/// profile, issue a new code, withdraw, correct a day's value, delete a wrong lab value. Each
/// form is read through the API's own decoder and handed to the service the API route calls;
/// a refused form comes back with every field's problem at its field (`FormCheck`) and nothing
/// written; a success answers 303 to a page that says what was done.
extension Console {
    static let gone: HTTPStatus = 410

    func enrolPage(_ ctx: PageContext, errors: FormErrors = FormErrors()) throws -> HTML {
        var page = EnrolPage(layout: layout(ctx), rules: study.rules.snapshot.rules, defaultTimeZone: study.configuration.defaultTimeZone,
                             errors: errors)
        let all = try study.sites.sitesById()
        if all.count > 1 { page.sites = all.filter { ctx.scope.contains(site: $0.key) } }
        return page.render()
    }

    func managePage(_ ctx: PageContext, errors: FormErrors = FormErrors()) throws -> HTML {
        let detail = try study.patients.show(studyId: ctx.parameter("studyId"))
        let zone = study.zone(detail.summary.patient.profile)
        return ManagePage(layout: layout(ctx), detail: detail, zone: zone, rules: study.rules.snapshot.rules,
                          today: zone.localDate(atEpochSeconds: study.clock.now()), errors: errors).render()
    }

    func enrol(_ ctx: PageContext) throws -> HTTPResponse {
        let rules = study.rules.snapshot.rules
        // The site's time zone is the enrolment default; a site refused is shown at the site field below.
        var check = FormCheck()
        var site: Site?
        do { site = try study.sites.enrolmentSite(code: ctx.field("site"), scope: ctx.scope) } catch let e as DomainError {
            // Said at the site field together with every other refused field (all problems at once).
            if let found = refusal(e, fallback: "site", language: ctx.language) { check.note(found.field, said: found.message) }
        }
        let members = PatientBodies.withDefaultTimeZone(ProfileForm.body(ctx.form, enrolment: true),
                                                        site?.timeZone ?? study.configuration.defaultTimeZone)
        let profile = check.decode(members, standIns: ProfileForm.standIns, fallback: "studyId") { b throws(FieldError) in
            try ProfileDecoder.decode(b, path: "", rules: rules)
        }
        let refuse = { (check: FormCheck, status: HTTPStatus) throws -> HTTPResponse in
            var echo = ProfileForm.echo(ctx.form)
            echo["site"] = ctx.form["site"] ?? ""
            return try self.refused(ctx, form: "enrol", check, echo: echo, shown: ProfileForm.names + ["site"], status: status) {
                try self.enrolPage(ctx, errors: $0)
            }
        }
        guard let profile, check.isEmpty else { return try refuse(check, .badRequest) }
        do {
            let enrolled = try study.enrollment.enroll(Enroll(profile: profile, site: ctx.field("site"), scope: ctx.scope, actor: ctx.actor))
            let studyId = enrolled.patient.studyId
            keep(ctx, OneTimeCodes.Issued(studyId: studyId, code: Secrets.groupedActivationCode(enrolled.activationCode),
                                         expiresAt: enrolled.activationExpiresAt, monitoringEnds: enrolled.monitoringEnds))
            return WebResponse.redirect(Self.patientPath(studyId, "/code"))
        } catch let e as DomainError {
            guard let found = refusal(e, fallback: "studyId", language: ctx.language) else { throw e }
            return try refuse(FormCheck(found.field, said: found.message), found.status)
        }
    }

    func updateProfile(_ ctx: PageContext) throws -> HTTPResponse {
        let stored = try study.patients.show(studyId: ctx.parameter("studyId")).summary.patient
        let rules = study.rules.snapshot.rules
        var check = FormCheck()
        // A refused member is dropped: the stored value stands in for it while the rest is checked.
        let patch = check.decode(ProfileForm.body(ctx.form, enrolment: false), fallback: "surgeryDate") { b throws(FieldError) in
            guard case .object(let o) = b else { throw FieldError.invalid(nil, "expected an object") }
            _ = try ProfilePatch(o).applied(to: stored.profile, rules: rules)
            return o
        }
        let refuse = { (check: FormCheck, status: HTTPStatus) in
            try self.refused(ctx, form: "profile", check, echo: ProfileForm.echo(ctx.form), shown: ProfileForm.names, status: status) {
                try self.managePage(ctx, errors: $0)
            }
        }
        guard let patch else { return try refuse(check, .badRequest) }
        do {
            _ = try study.enrollment.updateProfile(UpdateProfile(studyId: stored.studyId, patch: ProfilePatch(patch), actor: ctx.actor))
            return WebResponse.redirect(Self.patientPath(stored.studyId, "?done=profile"))
        } catch let e as DomainError {
            guard let found = refusal(e, fallback: "surgeryDate", language: ctx.language) else { throw e }
            return try refuse(FormCheck(found.field, said: found.message), found.status)
        }
    }

    func reissueCode(_ ctx: PageContext) throws -> HTTPResponse {
        let stored = try study.patients.show(studyId: ctx.parameter("studyId")).summary.patient
        do {
            let issued = try study.enrollment.reissueActivation(studyId: stored.studyId, actor: ctx.actor)
            keep(ctx, OneTimeCodes.Issued(studyId: stored.studyId, code: Secrets.groupedActivationCode(issued.code),
                                         expiresAt: issued.expiresAt, monitoringEnds: nil))
            return WebResponse.redirect(Self.patientPath(stored.studyId, "/code"))
        } catch let e as DomainError {
            guard let found = refusal(e, fallback: "code", language: ctx.language) else { throw e }
            return try refused(ctx, form: "code", FormCheck("code", said: found.message), echo: [:], shown: ["code"], status: found.status) {
                try managePage(ctx, errors: $0)
            }
        }
    }

    /// `/console/patients/{studyId}/code`: the code this session just issued, once.
    func codePage(_ ctx: PageContext) throws -> HTTPResponse {
        let stored = try study.patients.show(studyId: ctx.parameter("studyId")).summary.patient
        let issued = ctx.session.flatMap { codes.take(session: $0.id, studyId: stored.studyId, now: study.clock.now()) }
        let app = study.configuration.app
        let page = ActivationCodePage(layout: layout(ctx), issued: issued, studyId: stored.studyId, zone: study.zone(stored.profile),
                                      activationURL: issued.flatMap { app.activationURL(studyId: $0.studyId, code: $0.code) },
                                      clinicPhone: try study.sites.numbers(siteId: stored.siteId, app: app).clinicPhone,
                                      publicAppURL: app.publicURL.map { "\($0)/app/" })
        return WebResponse.page(issued == nil ? Self.gone : .ok, page.render())
    }

    func withdraw(_ ctx: PageContext) throws -> HTTPResponse {
        let stored = try study.patients.show(studyId: ctx.parameter("studyId")).summary.patient
        var check = FormCheck()
        let posted = FormInput.object(ctx.form, [("reason", .text), ("date", .text)])
        let read = check.decode(posted, standIns: JSONObject([("reason", "x")]), fallback: "reason") { b throws(FieldError) in
            try decodeBody(b) { r throws(FieldError) in (try r.required(PatientBodies.reason.required), try r.optional(PatientBodies.date)) }
        }
        let fields = ["reason", "date"]
        let refuse = { (check: FormCheck, status: HTTPStatus) in
            try self.refused(ctx, form: "withdraw", check, echo: FormInput.echo(ctx.form, fields), shown: fields, status: status) {
                try self.managePage(ctx, errors: $0)
            }
        }
        guard let read else { return try refuse(check, .badRequest) }
        let (reason, date) = read
        do {
            _ = try study.enrollment.withdraw(Withdraw(studyId: stored.studyId, reason: reason, date: date, actor: ctx.actor))
            return WebResponse.redirect(Self.patientPath(stored.studyId, "?done=withdrawn"))
        } catch let e as DomainError {
            guard let found = refusal(e, fallback: "reason", language: ctx.language) else { throw e }
            return try refuse(FormCheck(found.field, said: found.message), found.status)
        }
    }

    /// `/console/patients/{studyId}/code` and the like.
    static func patientPath(_ studyId: String, _ rest: String = "") -> String {
        "/console/patients/\(URLComponentEncoding.segment(studyId))\(rest)"
    }

    /// The code page will show `issued` to this session, once.
    func keep(_ ctx: PageContext, _ issued: OneTimeCodes.Issued) {
        guard let session = ctx.session else { return }
        codes.keep(issued, session: session.id, now: study.clock.now())
    }

    /// Where a service's refusal is shown and what it says, in the page's language; nil for an
    /// error that is not about the form (a missing patient: the error page).
    func refusal(_ e: DomainError, fallback: String, language: Language) -> (field: String, message: String, status: HTTPStatus)? {
        let t = ConsoleText(language)
        switch e {
        case .rejected(let error):
            let field = FormCheck.formField(error) ?? fallback
            return (field, t.refusal(field, error), .badRequest)
        case .conflict(_, let field, let problem):
            return (field ?? fallback, FieldMessages(language).text(problem), .conflict)
        case .limitReached(let list, let limit):
            return (fallback, FieldMessages(language).limitReached(list, limit), .conflict)
        default:
            return nil
        }
    }

    /// The page again (`render`) with every refusal of `check` at its field of `form` (one the
    /// form does not show goes to the first of `shown`) and what was typed.
    func refused(_ ctx: PageContext, form: String, _ check: FormCheck, echo: [String: String], shown: [String], status: HTTPStatus,
                 render: (FormErrors) throws -> HTML) throws -> HTTPResponse {
        let t = ConsoleText(ctx.language)
        var messages: [String: String] = [:]
        for (field, refusal) in check.refusals {
            let at = shown.contains(field) ? field : shown[0]
            guard messages[at] == nil else { continue }
            switch refusal {
            case .error(let error): messages[at] = t.refusal(field, error)
            case .said(let message): messages[at] = message
            }
        }
        var errors = FormErrors()
        errors.messages[form] = messages
        errors.values[form] = echo
        return WebResponse.page(status, try render(errors))
    }
}
