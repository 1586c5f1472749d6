import HTJSON
import HTTPServer
import HyponaTrackDomain

extension Routes {
    /// Backups listed and verified, hook events listed and retried, hooks enabled again (admin;
    /// listing hook events is for every staff member, as `hooks status` is).
    static func operations(backups: BackupService, hooks: HookAdmin) -> [Route] {
        let with = Responses.adding(to: Responses.staff(notFound: nil))
        return [
            Route(.get, "/v1/backups", access: .staff(.admin), touches: .system,
                  summary: "The backups in the backup directory, newest first, with what was checked when each was written",
                  responses: with([200: ("the backups", OperationsJSON.listing.reference)])) { _ in
                .json(.ok, OperationsJSON.listing.encode(.init(directory: backups.directory.path,
                                                               configured: backups.isScheduled, backups: backups.list())))
            },
            Route(.post, "/v1/backups/verification", access: .staff(.admin), touches: .system,
                  summary: "Check a backup of the backup directory again: SHA-256 against its manifest, integrity, audit chain, schema",
                  request: S.body([OperationsBodies.file.required.member]),
                  responses: Responses.longRead(with([200: ("what the checks found (ok false: the backup is not good)",
                                                            OperationsJSON.verification.reference),
                                                      404: ("no such backup", S.error)]))) { ctx in
                let file = try decodeBody(ctx.body) { r throws(FieldError) in try r.required(OperationsBodies.file.required) }
                return .json(.ok, OperationsJSON.verification.encode(try backups.verify(VerifyBackup(file: file, actor: ctx.actor))))
            },
            Route(.get, "/v1/hooks/events", access: .staff(.read), touches: .list,
                  summary: "Hook events newest first, one per event and hook: pending, failed (waiting for a retry), dead, delivered",
                  query: OperationsBodies.eventQuery,
                  responses: with([200: ("events", S.array(OperationsJSON.event.reference))])) { ctx in
                .json(.ok, .array(try hooks.events(try OperationsBodies.events(ctx)).map(OperationsJSON.event.encode)))
            },
            Route(.post, "/v1/hooks/events/{eventId}/retry", access: .staff(.admin), touches: .system,
                  summary: "Send a dead or failed hook event again now (with another 24 hours before it is given up)",
                  responses: with([200: ("the hooks it goes to again", OperationsJSON.retried.schema),
                                   404: ("no such event", S.error),
                                   409: ("nothing to retry, or its hook is disabled", S.error)])) { ctx in
                let eventId = try OperationsBodies.eventId(ctx)
                let retried = try hooks.retry(RetryHookEvent(eventId: eventId, actor: ctx.actor))
                return .json(.ok, OperationsJSON.retried.encode(.init(eventId: eventId, hooks: retried)))
            },
            Route(.post, "/v1/hooks/{name}/enable", access: .staff(.admin), touches: .system,
                  summary: "Enable a hook again after its endpoint answered 410 Gone (its dead events stay dead until retried)",
                  responses: with([200: ("enabled", OperationsJSON.enabled.schema), 404: ("no hook of that name is configured", S.error),
                                   409: ("the hook is not disabled", S.error)])) { ctx in
                let name = try OperationsBodies.hookName(ctx)
                try hooks.enable(EnableHook(name: name, actor: ctx.actor))
                return .json(.ok, OperationsJSON.enabled.encode(name))
            },
        ]
    }
}

/// The operations routes' inputs, declared once for the decoder and the spec.
enum OperationsBodies {
    /// A backup's name, or its path in the backup directory.
    static let file = BodyField.text("file", length: 1...4096)

    static let eventQuery = [
        QueryParameter("state", schema: S.oneOf(HookEventState.allCases.map(\.rawValue)), description: "only events in this state"),
        QueryParameter("hook", schema: S.string("^[A-Za-z0-9_.-]{1,64}$"), description: "only this hook's"),
        QueryParameter("limit", schema: S.integer(HookEventsQuery.limits.lowerBound, HookEventsQuery.limits.upperBound),
                       description: "at most this many (absent: 100)"),
    ]

    static func events(_ ctx: RequestContext) throws -> HookEventsQuery {
        var query = HookEventsQuery()
        if let state = ctx.query("state") {
            guard let parsed = HookEventState(rawValue: state) else {
                throw APIError.invalid("state", "one of \(HookEventState.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            query.state = parsed
        }
        if let hook = ctx.query("hook") {
            guard isHookName(hook) else { throw APIError.invalid("hook", "not a hook name") }
            query.hook = hook
        }
        if let text = ctx.query("limit") {
            guard let n = Int(text), HookEventsQuery.limits.contains(n) else {
                throw APIError.invalid("limit", "an integer \(HookEventsQuery.limits.lowerBound)–\(HookEventsQuery.limits.upperBound)")
            }
            query.limit = n
        }
        return query
    }

    /// `{eventId}`: `evt_` and 24 hexadecimal digits (`HookOutbox.enqueue`).
    static func eventId(_ ctx: RequestContext) throws -> String {
        let id = ctx.parameter("eventId")
        let hex = id.dropFirst(4)
        guard id.hasPrefix("evt_"), hex.count == 24, hex.allSatisfy(\.isHexDigit) else {
            throw APIError.invalid("eventId", "an event id: evt_ and 24 hexadecimal digits")
        }
        return id
    }

    static func hookName(_ ctx: RequestContext) throws -> String {
        let name = ctx.parameter("name")
        guard isHookName(name) else { throw APIError.invalid("name", "not a hook name") }
        return name
    }

    /// 1–64 of `[A-Za-z0-9._-]`, as `hooks[].name` (the spec's pattern).
    static func isHookName(_ text: String) -> Bool { (1...64).contains(text.utf8.count) && HookConfiguration.isValidName(text) }
}
