import HTJSON
import HTML
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

/// The contact form's target (`ContactForm`): from the patient's page or an alert's row in the
/// inbox or the patient's alert table. The form's fields are read through the API's declarations
/// (`ContactBodies`), so limits and refusals are the API's; a refusal shows the page again with
/// its message at the field, in the page's language, and nothing stored.
extension Console {
    func addContact(_ ctx: PageContext) throws -> HTTPResponse {
        let studyId = ctx.parameter("studyId")
        let detail = try study.patients.show(studyId: studyId)            // 404 for an unknown patient
        let stored = detail.summary.patient.studyId
        let inRow = ctx.form["row"] == "1"
        let rowAlert = inRow ? ctx.form["alertId"].flatMap { Int64($0) } : nil
        let form = ContactForm.formName(alertRow: rowAlert)
        // In an alert's row the alert is not a field one can see: what is said about it goes to the outcome.
        let fields = inRow ? ["outcome", "note"] : ["outcome", "note", "alertId"]
        let back = ctx.form["back"] == "inbox" ? "inbox" : "patient"
        func page(_ errors: FormErrors) throws -> HTML {
            back == "inbox" ? try inboxPage(ctx, errors: errors) : try patientPage(ctx, errors: errors)
        }
        func shown(_ refusal: (field: String, message: String)) -> (field: String, message: String) {
            fields.contains(refusal.field) ? refusal : ("outcome", refusal.message)
        }
        do {
            let body = FormInput.body(ctx.form, [("outcome", .text), ("note", .text), ("alertId", .number)])
            let command = try decodeBody(body) { r throws(FieldError) in try ContactBodies.command(r, studyId: stored, actor: ctx.actor) }
            let added = try study.contacts.add(command)
            let anchor = inRow ? added.contact.alertId.map { "#alert-\($0)" } ?? "#contacts" : "#contacts"
            let inbox = InboxFilter.returned(ctx.form[InboxFilter.formFieldName], language: ctx.language)
            return WebResponse.redirect(back == "inbox" ? inbox.href + anchor
                                                       : "/console/patients/\(URLComponentEncoding.segment(stored))\(anchor)")
        } catch let e as FieldError {
            let refusal = shown(FormInput.refusal(e, fallback: "outcome", language: ctx.language))
            return try refused(ctx, form: form, fields: fields, refusal, status: .badRequest, render: page)
        } catch DomainError.rejected(let e) {
            let refusal = shown(FormInput.refusal(e, fallback: "outcome", language: ctx.language))
            return try refused(ctx, form: form, fields: fields, refusal, status: .badRequest, render: page)
        } catch DomainError.notFound(_, let missing?) where missing != .patient(studyId: stored) {
            // Another patient's alert, or one that does not exist (a stale or altered form).
            let refusal = shown(("alertId", FieldMessages(ctx.language).text(missing)))
            return try refused(ctx, form: form, fields: fields, refusal, status: .notFound, render: page)
        }
    }
}
