import HTJSON
import HTTPServer
import HyponaTrackDomain

extension Routes {
    /// `hyponatrack sync …` (admin): present when a `redcap` block is configured; without one
    /// every sync route answers 409 "sync is not configured".
    static func sync(_ service: SyncService?) -> [Route] {
        let common: [HTTPStatus: (description: String, schema: JSONValue?)] = [
            401: ("no valid staff token", S.error), 403: ("admin only", S.error), 409: ("sync is not configured", S.error)]
        func with(_ extra: [HTTPStatus: (description: String, schema: JSONValue?)]) -> [HTTPStatus: (description: String, schema: JSONValue?)] {
            common.merging(extra) { _, new in new }
        }
        @Sendable func require() throws -> SyncService {
            guard let service else { throw APIError.conflict("REDCap sync is not configured (no redcap block in the configuration)") }
            return service
        }
        return [
            Route(.get, "/v1/sync/status", access: .staff(.admin), touches: .list, summary: "Outbox, dead letters, halt state, last success",
                  responses: with([200: ("status", SyncJSON.status.reference)])) { _ in .json(.ok, SyncJSON.status.encode(try require().status())) },
            Route(.post, "/v1/sync/retry", access: .staff(.admin), touches: .system, summary: "Retry failed rows now; with dead, the dead letters too",
                  request: S.body(SyncBodies.retry),
                  responses: with([200: ("rows made due", SyncJSON.retry.reference), 400: ("invalid request", S.error)])) { ctx in
                let service = try require()   // before the body: without sync, any body is 409
                let dead = try decodeBody(ctx.body) { r throws(FieldError) in try r.optional(SyncBodies.dead) ?? false }
                return .json(.ok, SyncJSON.retry.encode(try service.retry(RetrySync(dead: dead, actor: ctx.actor))))
            },
            Route(.post, "/v1/sync/resume", access: .staff(.admin), touches: .system, summary: "Resume a halted sync after fixing the cause",
                  responses: with([200: ("status", SyncJSON.status.reference)])) { ctx in
                .json(.ok, SyncJSON.status.encode(try require().resume(ResumeSync(actor: ctx.actor))))
            },
            Route(.get, "/v1/sync/check", access: .staff(.admin), touches: .list,
                  summary: "Compare the REDCap project (version, project info, metadata) with the fields the server writes",
                  responses: with([200: ("comparison", SyncJSON.check.reference), 502: ("REDCap could not be read", S.error)])) { _ in
                .json(.ok, SyncJSON.check.encode(try require().check()))
            },
            Route(.get, "/v1/sync/reconcile", access: .staff(.admin), touches: .list, summary: "Export our records from REDCap and list differences",
                  responses: with([200: ("differences", SyncJSON.reconcile.reference), 502: ("REDCap could not be read", S.error)])) { _ in
                .json(.ok, SyncJSON.reconcile.encode(try require().reconcile()))
            },
            Route(.post, "/v1/sync/export-all", access: .staff(.admin), touches: .system, summary: "Re-queue every baseline, day and alert (idempotent)",
                  responses: with([200: ("rows queued", SyncJSON.exportAll.reference)])) { ctx in
                .json(.ok, SyncJSON.exportAll.encode(try require().exportAll(ExportAll(actor: ctx.actor))))
            },
        ]
    }
}

/// The sync bodies' members, declared once for the decoder and the spec.
enum SyncBodies {
    static let dead = BodyField.bool("dead")
    static let retry = [dead.member]
}
