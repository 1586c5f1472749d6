import HTJSON
import HTML
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

/// The console's proposals page and its confirm/reject forms (docs/product.md, "Imports"): a
/// decision answers 303 back to the list; a refused one (a conflict without the override box, a
/// note too long, already decided, a lab value for a full day) shows the list again with the
/// message at the form.
extension Console {
    /// The pending proposals, newest first, a page of `ProposalsQuery.defaultLimit` (`before`:
    /// the older ones), with how many are pending in all.
    func proposalsPage(_ ctx: PageContext, errors: FormErrors = FormErrors()) throws -> HTML {
        var query = ProposalsQuery(status: .pending)
        query.scope = ctx.scope
        if let text = ctx.query("before") {
            // A malformed page link is refused, not answered with the first page (as the alert list).
            guard let id = Int64(text), id > 0 else {
                throw PageFailure(.badRequest, ctx.language.s("\"before\" is not a proposal number.", "\"before\" ist keine Vorschlagsnummer."))
            }
            query.before = id
        }
        let page = try study.proposals.list(query)
        return ProposalsPage(layout: layout(ctx), proposals: page.proposals, total: page.total, olderBefore: page.olderBefore,
                             errors: errors).render()
    }

    func proposals(_ ctx: PageContext) throws -> HTTPResponse { WebResponse.page(.ok, try proposalsPage(ctx)) }

    func decideProposal(_ ctx: PageContext, confirm: Bool) throws -> HTTPResponse {
        guard let id = Int64(ctx.parameter("proposalId")), id > 0 else { throw PageFailure.notFound(ctx.request.http.path, ctx.language) }
        let form = "\(confirm ? "confirm" : "reject")-\(id)"
        func again(_ field: String, _ message: String, _ status: HTTPStatus) throws -> HTTPResponse {
            var errors = FormErrors()
            errors.messages[form] = [field: message]
            errors.values[form] = ["note": ctx.form["note"] ?? ""]
            return WebResponse.page(status, try proposalsPage(ctx, errors: errors))
        }
        do {
            let note = try decodeBody(FormInput.body(ctx.form, [("note", .text)])) { r throws(FieldError) in try r.optional(ImportBodies.note) }
            let command = DecideProposal(id: id, note: note, override: confirm && ctx.form["override"] == "true", actor: ctx.actor)
            _ = confirm ? try study.proposals.confirm(command) : try study.proposals.reject(command)
            return WebResponse.redirect("/console/proposals")
        } catch let e as FieldError {
            let refusal = FormInput.refusal(e, fallback: "note", language: ctx.language)
            return try again(refusal.field, refusal.message, .badRequest)
        } catch DomainError.conflict(_, let field, let problem) {
            let refusal = FormInput.refusal(conflict: problem, field: field, fallback: "note", language: ctx.language)
            return try again(refusal.field, refusal.message, .conflict)
        } catch DomainError.limitReached(let list, let limit) {
            // A lab proposal for a day that holds limits.itemsPerList lab values already.
            let refusal = FormInput.refusal(limitReached: list, limit: limit, at: "note", language: ctx.language)
            return try again(refusal.field, refusal.message, .conflict)
        }
    }
}
