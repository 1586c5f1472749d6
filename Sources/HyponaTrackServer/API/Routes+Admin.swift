import HTJSON
import HTTPServer

extension Routes {
    /// Staff members, backups and the audit trail.
    static func admin(_ service: StudyService, _ access: ActivationService) -> [Route] {
        let common: [HTTPStatus: (description: String, schema: JSONValue?)] = [
            400: ("invalid request", S.error), 401: ("no valid staff token", S.error), 403: ("role not allowed", S.error),
            404: ("no such patient or item", S.error)]
        func with(_ extra: [HTTPStatus: (description: String, schema: JSONValue?)]) -> [HTTPStatus: (description: String, schema: JSONValue?)] {
            common.merging(extra) { _, new in new }
        }
        return [
            Route(.post, "/v1/staff", access: .staff(.admin), summary: "Add a staff member; returns their token once",
                  request: S.object([("name", S.string("^[A-Za-z0-9_.-]{1,64}$")), ("role", S.oneOf(["admin", "nurse", "viewer"]))],
                                    required: ["name", "role"]),
                  responses: with([201: ("added", S.object([("name", S.anyString), ("role", S.anyString), ("token", S.anyString)])),
                                   409: ("name taken", S.error)])) { ctx in
                .json(201, try access.addStaff(body: ctx.body, actor: ctx.actor))
            },
            Route(.get, "/v1/staff", access: .staff(.admin), summary: "Staff members and their roles",
                  responses: with([200: ("staff", S.array(S.openObject()))])) { _ in
                .json(200, try access.listStaff())
            },
            Route(.post, "/v1/staff/{name}/revocation", access: .staff(.admin), summary: "Revoke a staff member's token",
                  responses: with([200: ("revoked", S.openObject()),
                                   409: ("the last active admin: add another admin first", S.error)])) { ctx in
                .json(200, try access.revokeStaff(name: ctx.parameter("name"), actor: ctx.actor))
            },
            Route(.post, "/v1/backup", access: .staff(.admin),
                  summary: "A consistent online copy of the database under DATA_DIR/backups/ (checked before it is reported)",
                  responses: with([201: ("the backup", S.object([("path", S.anyString), ("bytes", S.anyInteger), ("createdAt", S.anyString),
                                                                ("integrity", S.anyString), ("auditIntact", S.bool),
                                                                ("auditRows", S.anyInteger)]))])) { ctx in
                .json(201, try service.backup(actor: ctx.actor))
            },
            Route(.get, "/v1/audit", access: .staff(.read), summary: "Audit trail entries (newest last)",
                  responses: with([200: ("entries", S.array(S.openObject()))])) { ctx in
                .json(200, try service.auditEntries(limit: ctx.query("limit"), after: ctx.query("after"), subject: ctx.query("subject")))
            },
            Route(.get, "/v1/audit/verify", access: .staff(.read), summary: "Recompute the audit chain; names the first broken row",
                  responses: with([200: ("verification result", S.object([("intact", S.bool), ("rowsChecked", S.anyInteger),
                                                                          ("firstBrokenSeq", S.nullable(S.anyInteger)),
                                                                          ("reason", S.nullable(S.anyString)),
                                                                          ("lastSeq", S.nullable(S.anyInteger)),
                                                                          ("lastHash", S.nullable(S.anyString))]))])) { _ in
                .json(200, try service.verifyAudit())
            },
        ]
    }
}
