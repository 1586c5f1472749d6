import HyponaTrackDomain

/// `GET /v1/hooks/status`: one object per hook, declared once for the encoder and `/openapi.json`.
enum HookJSON {
    static let status = ResponseShape<HookStatus>(nil, [
        .member("name", .string) { $0.name },
        .member("type", .string(S.oneOf(["webhook", "email", "command"]))) { $0.type },
        .member("events", .array(.string(S.oneOf(HookEventType.subscribable.map(\.rawValue))))) { $0.events },
        .member("disabled", .bool) { $0.summary.disabledAt != nil },
        .member("disabledReason", .nullable(.string)) { $0.summary.disabledReason },
        .member("pending", .integer) { $0.summary.pending },
        .member("delivered", .integer) { $0.summary.delivered },
        .member("deadLetters", .integer) { $0.summary.dead },
        .member("oldestPendingAt", .nullable(.instant)) { $0.summary.oldestPendingAt },
        .member("lastError", .nullable(.string)) { $0.summary.lastError },
        .member("dead", .array(.object(deadLetter))) { $0.summary.deadLetters },
    ])

    static let deadLetter = ResponseShape<HookDeadLetter>(nil, [
        .member("eventId", .string) { $0.eventId },
        .member("type", .string) { $0.type },
        .member("error", .nullable(.string)) { $0.error },
        .member("attempts", .integer) { $0.attempts },
    ])
}
