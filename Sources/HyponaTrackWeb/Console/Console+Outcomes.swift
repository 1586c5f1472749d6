import HTJSON
import HTML
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

/// The outcome form's target (`OutcomeSection`) and the outcome report's page. The form's fields
/// are read through the API's declarations (`OutcomeBodies`) by `FormCheck`, so every refused
/// field is shown at once, at its field, in the page's language, and nothing is stored.
extension Console {
    func addOutcome(_ ctx: PageContext) throws -> HTTPResponse {
        let stored = try study.patients.show(studyId: ctx.parameter("studyId")).summary.patient   // 404 for an unknown patient
        let fields = ["kind", "date", "sodium", "note"]
        var check = FormCheck()
        let posted = FormInput.object(ctx.form, [("kind", .text), ("date", .text), ("sodium", .number), ("note", .text)])
        let command = check.decode(posted, standIns: JSONObject([("kind", "other"), ("date", "2000-01-01")]), fallback: "kind") { b throws(FieldError) in
            try decodeBody(b) { r throws(FieldError) in try OutcomeBodies.command(r, studyId: stored.studyId, actor: ctx.actor) }
        }
        let refuse = { (check: FormCheck, status: HTTPStatus) in
            try self.refused(ctx, form: OutcomeSection.form, check, echo: FormInput.echo(ctx.form, fields), shown: fields, status: status) {
                try self.patientPage(ctx, errors: $0)
            }
        }
        // The date's range is the service's to check: asked here too, so it is said with the rest.
        if let date = ctx.form["date"].flatMap(LocalDate.init), check.refusals.allSatisfy({ $0.field != "date" }) {
            do { try study.outcomes.checkDate(studyId: stored.studyId, date: date) } catch DomainError.rejected(let e) {
                check.note("date", e)
            }
        }
        guard let command, check.isEmpty else { return try refuse(check, .badRequest) }
        do {
            _ = try study.outcomes.add(command)
            return WebResponse.redirect(Self.patientPath(stored.studyId, "#outcomes"))
        } catch let e as DomainError {
            guard let found = refusal(e, fallback: "kind", language: ctx.language) else { throw e }
            return try refuse(FormCheck(found.field, said: found.message), found.status)
        }
    }

    func outcomesPage(_ ctx: PageContext) throws -> HTTPResponse {
        func date(_ name: String) throws -> LocalDate? {
            guard let text = ctx.query(name), !text.isEmpty else { return nil }
            guard let d = LocalDate(text) else {
                throw PageFailure(.badRequest, ctx.language.s("\(name) is a date YYYY-MM-DD", "\(name) ist ein Datum JJJJ-MM-TT"))
            }
            return d
        }
        let report = try study.outcomeReport.report(OutcomeReportQuery(from: try date("from"), to: try date("to"), scope: ctx.scope))
        var page = OutcomesPage(layout: layout(ctx), report: report)
        page.sites = try siteChoices(ctx)
        page.site = ctx.query("site") ?? ""
        return WebResponse.page(.ok, page.render())
    }
}
