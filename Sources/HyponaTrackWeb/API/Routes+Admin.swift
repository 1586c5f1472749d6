import HTJSON
import HTTPServer
import HyponaTrackDomain

extension Routes {
    /// Staff members, backups and the audit trail.
    static func admin(_ service: StudyService, _ access: ActivationService) -> [Route] {
        let staff = access.staffService, audit = service.audit, backups = service.backup
        let common: [HTTPStatus: (description: String, schema: JSONValue?)] = [
            400: ("invalid request", S.error), 401: ("no valid staff token", S.error), 403: ("role not allowed", S.error),
            404: ("no such patient or item", S.error)]
        func with(_ extra: [HTTPStatus: (description: String, schema: JSONValue?)]) -> [HTTPStatus: (description: String, schema: JSONValue?)] {
            common.merging(extra) { _, new in new }
        }
        return [
            Route(.post, "/v1/staff", access: .staff(.admin), touches: .system, summary: "Add a staff member; returns their token once",
                  request: S.body(StaffBodies.addition),
                  responses: with([201: ("added", AdminJSON.added.reference),
                                   409: ("name taken", S.error)])) { ctx in
                let command = try decodeBody(ctx.body) { r throws(FieldError) in
                    AddStaff(name: try r.required(StaffBodies.name.required), role: try r.required(StaffBodies.role.required),
                             sites: try SiteBodies.staffSites(r), actor: ctx.actor)
                }
                return .json(.created, AdminJSON.added.encode(try staff.add(command)))
            },
            Route(.get, "/v1/staff", access: .staff(.admin), touches: .system, summary: "Staff members and their roles",
                  responses: with([200: ("staff", S.array(AdminJSON.member.reference))])) { _ in
                .json(.ok, .array(try staff.list().map(AdminJSON.member.encode)))
            },
            Route(.post, "/v1/staff/{name}/revocation", access: .staff(.admin), touches: .system, summary: "Revoke a staff member's token",
                  responses: with([200: ("revoked", AdminJSON.revoked.reference),
                                   409: ("the last active admin: add another admin first", S.error)])) { ctx in
                let command = RevokeStaff(name: try StaffBodies.name(ctx), actor: ctx.actor)
                return .json(.ok, AdminJSON.revoked.encode(try staff.revoke(command)))
            },
            Route(.post, "/v1/staff/{name}/rotation", access: .staff(.adminOrSelf), touches: .system,
                  summary: "Rotate a staff member's token (an admin, or the member themself): the new token is shown once, the old one is refused at once",
                  responses: with([200: ("the new token (shown once)", AdminJSON.rotated.reference),
                                   404: ("no active staff member of that name", S.error)])) { ctx in
                let command = RotateStaffToken(name: try StaffBodies.name(ctx), actor: ctx.actor)
                return .json(.ok, AdminJSON.rotated.encode(try staff.rotate(command)))
            },
            Route(.put, "/v1/staff/{name}/password", access: .staff(.adminOrSelf), touches: .system,
                  summary: "Set a staff member's console password (an admin, or the member themself); their console sessions end",
                  request: S.body([StaffBodies.password.required.member]),
                  responses: with([204: ("set", nil), 404: ("no active staff member of that name", S.error)])) { ctx in
                let name = try StaffBodies.name(ctx)
                let password = try decodeBody(ctx.body) { r throws(FieldError) in try r.required(StaffBodies.password.required) }
                try staff.setPassword(SetStaffPassword(name: name, password: password, actor: ctx.actor))
                return .raw(HTTPResponse(status: .noContent, headers: ["Cache-Control": "no-store"]))
            },
            Route(.post, "/v1/backup", access: .staff(.admin), touches: .export,
                  summary: "A consistent online copy of the database in backup.directory (else DATA_DIR/backups/), checked before it is reported",
                  responses: Responses.longRead(with([201: ("the backup", AdminJSON.backup.reference),
                                                      409: ("a backup is being written", S.error),
                                                      500: ("the backup failed (not started for lack of space, or failed its checks): backup.failed", S.error)]))) { ctx in
                .json(.created, AdminJSON.backup.encode(try backups.backup(CreateBackup(actor: ctx.actor))))
            },
            Route(.get, "/v1/audit", access: .staff(.read), touches: .list, summary: "Audit trail entries (newest last)",
                  responses: Responses.longRead(with([200: ("entries", S.array(AdminJSON.entry.reference))]))) { ctx in
                .json(.ok, .array(try audit.entries(try AuditParameters.query(ctx)).map(AdminJSON.entry.encode)))
            },
            Route(.get, "/v1/audit/verify", access: .staff(.read), touches: .system,
                  summary: "Recompute the audit chain; names the first broken row; ?checkpoint=SEQ:HEX also compares with a checkpoint",
                  responses: Responses.longRead(with([200: ("verification result", AdminJSON.verification.reference)]))) { ctx in
                // The whole chain holds every site's rows: for all-sites staff (docs/product.md, settled S).
                guard ctx.scope.isAllSites else { throw APIError.forbidden("verifying the whole audit trail is for all-sites staff") }
                return .json(.ok, AdminJSON.verification.encode(try audit.verify(checkpoint: try AuditParameters.checkpoint(ctx))))
            },
            Route(.post, "/v1/audit/checkpoints", access: .staff(.admin), touches: .system,
                  summary: "Checkpoint the audit chain: an audited audit.checkpoint row whose seq and hash go to the subscribed hooks",
                  responses: with([201: ("the checkpoint", AdminJSON.checkpoint.reference)])) { ctx in
                .json(.created, AdminJSON.checkpoint.encode(try audit.checkpoint(CreateCheckpoint(actor: ctx.actor))))
            },
        ]
    }
}

/// The staff body's members, declared once for the decoder and the spec.
enum StaffBodies {
    /// Names appear in audit actors and CLI arguments (`StaffDirectory.isValidName`).
    static let name = BodyField.pattern("name", "^[A-Za-z0-9_.@-]{1,64}$", length: 1...64,
                                        expected: "a name of letters, digits, '.', '_', '-' or '@'", StaffDirectory.isValidName)
    static let role: BodyField<Role> = {
        let names = BodyField.oneOf("role", Role.allCases.map(\.rawValue))
        return BodyField(name: names.name, read: names.read.map { text, path throws(FieldError) in
            guard let role = Role(rawValue: text) else { throw FieldError.invalid(path, "not a role") }   // oneOf has checked
            return role
        }, schema: names.schema, isRequired: false)
    }()
    static let addition = [name.required.member, role.required.member] + SiteBodies.staffSites
    /// A console password: 12–1024 characters (never logged, stored as a PBKDF2 hash).
    static let password = BodyField.secret("password", length: StaffPasswords.minimumLength...StaffPasswords.maximumLength)

    /// The `{name}` path parameter.
    static func name(_ ctx: RequestContext) throws -> String {
        let name = ctx.parameter("name")
        guard StaffDirectory.isValidName(name) else { throw APIError.invalid("name", "not a staff name") }
        return name
    }
}

/// `GET /v1/audit`'s query parameters: read here, and listed in the spec from the same limits.
enum AuditParameters {
    static let limit = 1...1000
    static let subjectLength = 1...200

    static func query(_ ctx: RequestContext) throws -> AuditQuery {
        let n = try ctx.query("limit").map { text -> Int in
            guard let n = Int(text), limit.contains(n) else {
                throw APIError.invalid("limit", "an integer \(limit.lowerBound)–\(limit.upperBound)")
            }
            return n
        } ?? 100
        let afterSeq = try ctx.query("after").map { text -> Int64 in
            guard let s = Int64(text), s >= 0 else { throw APIError.invalid("after", "a sequence number ≥ 0") }
            return s
        }
        let subject = ctx.query("subject")
        if let subject, !subjectLength.contains(subject.count) {
            throw APIError.invalid("subject", "\(subjectLength.lowerBound)–\(subjectLength.upperBound) characters")
        }
        return AuditQuery(limit: n, afterSeq: afterSeq, subject: subject, scope: ctx.scope, reader: ctx.actor)
    }

    /// `GET /v1/audit/verify?checkpoint=SEQ:HEX`; nil without the parameter.
    static func checkpoint(_ ctx: RequestContext) throws -> AuditCheckpoint? {
        try ctx.query("checkpoint").map { text in
            guard let checkpoint = AuditCheckpoint(text) else {
                throw APIError.invalid("checkpoint", "SEQ:HEX: a sequence number ≥ 1 (at most 18 digits, no leading zero), a colon and 64 hexadecimal digits")
            }
            return checkpoint
        }
    }

    /// The OpenAPI `parameters` of `GET /v1/audit/verify`.
    static var verifySpec: [JSONValue] {
        [["name": "checkpoint", "in": "query", "required": false,
          "schema": S.string("^[1-9][0-9]{0,17}:[0-9A-Fa-f]{64}$")]]
    }

    /// The OpenAPI `parameters` of the route.
    static var spec: [JSONValue] {
        [["name": "limit", "in": "query", "required": false, "schema": S.integer(limit.lowerBound, limit.upperBound)],
         ["name": "after", "in": "query", "required": false, "schema": S.integer(0, Int(Int64.max))],
         ["name": "subject", "in": "query", "required": false,
          "schema": S.string(min: subjectLength.lowerBound, max: subjectLength.upperBound)]]
    }
}
