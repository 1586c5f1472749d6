import Foundation
import HTJSON
import HTML
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

extension Routes {
    /// Imports and their proposals (docs/product.md, "Imports, proposed then confirmed"), and the
    /// staff correction of a day that confirming a day value goes through.
    static func imports(_ service: StudyService) -> [Route] {
        let with = Responses.adding(to: Responses.staff(notFound: "no such patient or proposal"))
        let decision = S.body([ImportBodies.note.member, ImportBodies.override.member])
        return [
            Route(.patch, "/v1/patients/{studyId}/days/{date}", access: .staff(.write), touches: .patient,
                  summary: "Correct a day's measurements (the patient's merge rules); re-evaluated, audited as a staff change",
                  request: S.ref("DayCorrection"),
                  responses: with([200: ("stored and evaluated", DayJSON.result.reference),
                                   409: ("withdrawn, or limit_reached: a list would pass limits.itemsPerList", S.error)])) { ctx in
                let date = try PathParameters.date(ctx, "date")
                let correction: (patch: DayPatch, reason: String?)
                do throws(FieldError) { correction = try DayCorrectionBody.decode(ctx.body, date: date, rules: service.rules.snapshot.rules) }
                catch { throw APIError.from(error) }
                let result = try service.days.correct(CorrectDay(studyId: ctx.parameter("studyId"), date: date, patch: correction.patch,
                                                                 reason: correction.reason, actor: ctx.actor))
                let numbers = try service.sites.numbers(siteId: result.siteId, app: service.configuration.app)
                return .json(.ok, DayJSON.result.encode(DayAnswer(result, language: ctx.language, emergencyNumber: numbers.emergencyNumber)))
            },
            Route(.post, "/v1/imports/fhir", access: .staff(.write), touches: .list,
                  summary: "Import FHIR R4 sodium Observations (an Observation or a Bundle): proposed, not applied",
                  upload: ["application/fhir+json", "application/json"],
                  responses: with([200: ("the import's report", ImportJSON.report.reference)])) { ctx in
                let bytes = try ImportUpload.bytes(ctx)
                return .json(.ok, ImportJSON.report.encode(try service.imports.fhir(ImportFHIR(document: bytes, scope: ctx.scope, actor: ctx.actor))))
            },
            Route(.post, "/v1/patients/{studyId}/imports/apple-health", access: .staff(.write), touches: .patient,
                  summary: "Import a patient's Apple Health export (export.zip or export.xml): proposed, not applied",
                  upload: ["application/zip", "application/xml", "text/xml"],
                  responses: with([200: ("the import's report", ImportJSON.report.reference), 409: ("withdrawn", S.error)])) { ctx in
                try ImportUpload.withFile(ctx, spool: service.configuration.spoolDirectory) { path in
                    let command = ImportAppleHealth(studyId: ctx.parameter("studyId"), path: path, actor: ctx.actor)
                    return .json(.ok, ImportJSON.report.encode(try service.imports.appleHealth(command)))
                }
            },
            Route(.get, "/v1/proposals", access: .staff(.read), touches: .list,
                  summary: "Imported values with the value each would replace and the current one, newest first: at most limit "
                      + "(default \(ProposalsQuery.defaultLimit)), before=ID for older (a Link rel=next header names the next page); "
                      + "total counts every match",
                  responses: with([200: ("a page of proposals, newest first, and how many match in all", ImportJSON.page.reference)])) { ctx in
                let query = try ImportBodies.query(ctx)
                let page = try service.proposals.list(query)
                var response = APIResponse.json(.ok, ImportJSON.page.encode(page))
                // The next page, as RFC 8288 says it and as the alert list does, with the filters kept.
                if let before = page.olderBefore {
                    response.headers.add(name: "Link", value: "<\(ImportBodies.path(query, before: before))>; rel=\"next\"")
                }
                return .raw(response)
            },
            Route(.post, "/v1/proposals/{proposalId}/confirm", access: .staff(.write), touches: .proposal,
                  summary: "Confirm a proposal: applied as a staff correction (re-evaluation, alerts, REDCap, audit)", request: decision,
                  responses: with([200: ("confirmed", ImportJSON.proposal.reference),
                                   409: ("not pending, or the value it would replace changed (confirm with override)", S.error)])) { ctx in
                let command = try ImportBodies.decision(ctx)
                return .json(.ok, ImportJSON.proposal.encode(try service.proposals.confirm(command)))
            },
            Route(.post, "/v1/proposals/{proposalId}/reject", access: .staff(.write), touches: .proposal, summary: "Reject a proposal (with a note)",
                  request: S.body([ImportBodies.note.member]),
                  responses: with([200: ("rejected", ImportJSON.proposal.reference), 409: ("not pending", S.error)])) { ctx in
                let command = try ImportBodies.decision(ctx, overridable: false)
                return .json(.ok, ImportJSON.proposal.encode(try service.proposals.reject(command)))
            },
        ]
    }
}

/// The import routes' body members, declared once for the decoder and the spec.
enum ImportBodies {
    static let note = BodyField.text("note", length: 1...1000)
    static let override = BodyField.bool("override")

    /// `status` (a proposal status), `studyId`, `before` (a proposal id), `limit` (1–5000,
    /// default 500): the alert list's paging (`AlertBodies.query`).
    static func query(_ ctx: RequestContext) throws -> ProposalsQuery {
        var query = ProposalsQuery(studyId: ctx.query("studyId"))
        query.scope = ctx.scope
        if let s = ctx.query("status") {
            guard let parsed = ProposalStatus(rawValue: s) else {
                throw APIError.invalid("status", "one of \(ProposalStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            query.status = parsed
        }
        let page = try PageParameters.read(ctx, limits: ProposalsQuery.limits, refusal: "not a proposal id")
        query.before = page.before
        query.limit = page.limit ?? ProposalsQuery.defaultLimit
        return query
    }

    /// The address of the page of `query` older than `before` (its filters kept).
    static func path(_ query: ProposalsQuery, before: Int64) -> String {
        var parts: [String] = []
        if let status = query.status { parts.append("status=\(status.rawValue)") }
        if let studyId = query.studyId { parts.append("studyId=\(URLComponentEncoding.queryValue(studyId))") }
        parts += ["limit=\(query.limit)", "before=\(before)"]
        return "/v1/proposals?" + parts.joined(separator: "&")
    }

    /// `{"note", "override"}` (confirm) or `{"note"}` (reject: `override` is an unknown member there).
    static func decision(_ ctx: RequestContext, overridable: Bool = true) throws -> DecideProposal {
        guard let id = Int64(ctx.parameter("proposalId")), id > 0 else { throw APIError.invalid("proposalId", "not a proposal id") }
        return try decodeBody(ctx.body) { r throws(FieldError) in
            DecideProposal(id: id, note: try r.optional(note), override: overridable ? try r.optional(override) ?? false : false,
                           actor: ctx.actor)
        }
    }
}

/// An upload's bytes, in memory or in the spool file the server wrote them to.
enum ImportUpload {
    static func bytes(_ ctx: RequestContext) throws -> [UInt8] {
        if let path = ctx.request.bodyFile {
            guard let data = FileManager.default.contents(atPath: path) else { throw APIError.invalid(nil, "the upload could not be read") }
            return Array(data)
        }
        return ctx.request.body
    }

    /// Runs `body` with the upload in a file: the server's spool file, or one written now from
    /// the in-memory body under `spool` (removed afterwards either way).
    static func withFile(_ ctx: RequestContext, spool: URL, _ body: (String) throws -> RouteResult) throws -> RouteResult {
        if let path = ctx.request.bodyFile { return try body(path) }
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = spool.appendingPathComponent("upload-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: file.path, contents: Data(ctx.request.body), attributes: [.posixPermissions: 0o600])
        else { throw APIError(status: 500, code: "internal", message: "the upload could not be spooled") }
        defer { try? FileManager.default.removeItem(at: file) }
        return try body(file.path)
    }
}

/// The API forms of proposals and import reports.
enum ImportJSON {
    static let proposal = ResponseShape<ProposalView>("Proposal", [
        .member("id", .id) { $0.proposal.id },
        .member("studyId", .string(S.studyId)) { $0.proposal.studyId },
        .member("source", .oneOf(ProposalSource.allCases)) { $0.proposal.source },
        .member("field", .oneOf(ProposalField.allCases)) { $0.proposal.field },
        .member("date", .date) { $0.proposal.date },
        .member("value", .nullable(.number)) { $0.proposal.value },
        .member("replaces", .nullable(.number)) { $0.proposal.replaces },
        .member("current", .nullable(.number)) { $0.current },
        .member("conflict", .bool) { $0.conflict },
        .member("status", .oneOf(ProposalStatus.allCases)) { $0.proposal.status },
        .member("createdAt", .instant) { $0.proposal.createdAt },
        .member("createdBy", .string) { $0.proposal.createdBy },
        .member("decidedAt", .nullable(.instant)) { $0.proposal.decidedAt },
        .member("decidedBy", .nullable(.string)) { $0.proposal.decidedBy },
        .member("note", .nullable(.string)) { $0.proposal.note },
    ])

    /// `GET /v1/proposals`: the page and how many match in all.
    static let page = ResponseShape<ProposalPage>(nil, [
        .member("proposals", .array(.object(proposal))) { $0.proposals },
        .member("total", .integer) { $0.total },
    ])

    /// What an import did. `refused` lists at most 200 refusals; `refusedTotal` counts them all.
    static let report = ResponseShape<ImportReport>("ImportReport", [
        .member("proposed", .array(.id)) { $0.proposed },
        .member("withdrawn", .array(.id)) { $0.withdrawn },
        .member("skippedOutsideWindow", .integer) { $0.skippedOutsideWindow },
        .member("refused", .array(.object(refusal))) { $0.refused },
        .member("refusedTotal", .integer) { $0.refusedTotal },
    ])

    static let refusal = ResponseShape<ImportReport.Refusal>(nil, [
        .member("entry", .string) { $0.entry },
        .member("reason", .oneOf(ImportReport.Reason.allCases)) { $0.reason },
        .member("detail", .string) { $0.detail },
    ])
}
