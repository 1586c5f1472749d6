import HTJSON
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

extension Routes {
    /// Alerts (nurses acknowledge and resolve) and hook delivery status.
    static func alerts(_ service: AlertService, hooksStatus: @escaping @Sendable () throws -> [HookStatus]) -> [Route] {
        let with = Responses.adding(to: Responses.staff(notFound: nil))
        return [
            Route(.get, "/v1/alerts", access: .staff(.read), touches: .list,
                  summary: "Alerts, newest first: open=true every unresolved one; else at most limit (default 500), before=ID for older (a Link rel=next header names the next page)",
                  query: [SiteParameters.filter], responses: with([200: ("alerts", S.array(AlertJSON.alert.reference))])) { ctx in
                let query = try AlertBodies.query(ctx)
                let page = try service.alerts(query)
                var response = APIResponse.json(.ok, .array(page.alerts.map(AlertJSON.alert.encode)))
                // The next page, as RFC 8288 says it (the CLI and the console page the same way).
                if let before = page.olderBefore, let limit = query.limit {
                    // A site filter stays on the next page (a code is [a-z0-9_], checked by the scope step).
                    let site = ctx.query("site").map { "&site=\($0)" } ?? ""
                    response.headers.add(name: "Link", value: "</v1/alerts?limit=\(limit)&before=\(before)\(site)>; rel=\"next\"")
                }
                return .raw(response)
            },
            Route(.post, "/v1/alerts/{alertId}/acknowledgement", access: .staff(.write), touches: .alert,
                  summary: "Acknowledge an alert: the escalation stops", request: S.body(AlertBodies.acknowledgement),
                  responses: with([200: ("acknowledged", AlertJSON.alert.reference), 404: ("no such alert", S.error),
                                   409: ("already acknowledged or resolved", S.error)])) { ctx in
                let id = try AlertBodies.alertId(ctx)
                let note = try decodeBody(ctx.body) { r throws(FieldError) in try r.optional(AlertBodies.note) }
                return .json(.ok, AlertJSON.alert.encode(try service.acknowledge(AcknowledgeAlert(alertId: id, note: note, actor: ctx.actor))))
            },
            Route(.post, "/v1/alerts/{alertId}/resolution", access: .staff(.write), touches: .alert,
                  summary: "Resolve an alert with a note (and the measured sodium, if any)",
                  request: S.body(AlertBodies.resolution),
                  responses: with([200: ("resolved", AlertJSON.alert.reference), 404: ("no such alert", S.error),
                                   409: ("already resolved", S.error)])) { ctx in
                let id = try AlertBodies.alertId(ctx)
                let command = try decodeBody(ctx.body) { r throws(FieldError) in
                    ResolveAlert(alertId: id, note: try r.required(AlertBodies.note.required), sodium: try r.optional(AlertBodies.sodium),
                                 sodiumTime: try r.optional(AlertBodies.sodiumTime), actor: ctx.actor)
                }
                return .json(.ok, AlertJSON.alert.encode(try service.resolve(command)))
            },
            Route(.get, "/v1/hooks/status", access: .staff(.read), touches: .system, summary: "Per hook: pending, delivered, dead letters, disabled",
                  responses: with([200: ("hooks", S.array(HookJSON.status.reference))])) { _ in
                .json(.ok, .array(try hooksStatus().map(HookJSON.status.encode)))
            },
        ]
    }
}

/// The alert routes' body members, declared once for the decoder and the spec.
enum AlertBodies {
    static let note = BodyField.text("note", length: 1...1000)
    static let sodium = BodyField.number("sodium", ValueRanges.sodium)
    /// When the sodium was taken (default: now); it is stored as a lab value of that day.
    static let sodiumTime = BodyField.parsed("sodiumTime", length: 16...40, schema: S.dateTime,
                                             refusal: "expected an ISO 8601 time with a UTC offset", Timestamp.init)
    static let acknowledgement = [note.member]
    static let resolution = [note.required.member, sodium.member, sodiumTime.member]

    /// `open` (true/false), `before` (an alert id), `limit` (1–5000; without it every unresolved
    /// alert with open=true, else the newest 500).
    static func query(_ ctx: RequestContext) throws -> AlertsQuery {
        var query: AlertsQuery
        switch ctx.query("open") {
        case nil, "false": query = AlertsQuery(openOnly: false, limit: AlertsQuery.defaultLimit)
        case "true": query = AlertsQuery(openOnly: true)
        default: throw APIError.invalid("open", "true or false")
        }
        query.scope = ctx.scope
        let page = try PageParameters.read(ctx, limits: AlertsQuery.limits, refusal: "not an alert id")
        if let before = page.before { query.before = before }
        if let limit = page.limit { query.limit = limit }
        return query
    }

    static func alertId(_ ctx: RequestContext) throws -> Int64 {
        guard let id = Int64(ctx.parameter("alertId")), id > 0 else { throw APIError.invalid("alertId", "not an alert id") }
        return id
    }
}

/// The API form of an alert.
enum AlertJSON {
    static let alert = ResponseShape<AlertView>("Alert", [
        .member("id", .id) { $0.id },
        .member("studyId", .string(S.studyId)) { $0.studyId },
        .member("date", .date) { $0.date },
        .member("lastDate", .date) { $0.lastDate ?? $0.date },
        .member("pod", .integer) { $0.pod },
        .member("kind", .oneOf(AlertKind.allCases)) { $0.kind },
        .member("level", .level) { $0.level },
        .member("state", .oneOf(AlertState.allCases)) { $0.state },
        .member("reasons", .array(.object(DayJSON.storedReason))) { $0.reasons },
        .member("openedAt", .instant) { $0.openedAt },
        .member("tiersFired", .integer) { $0.tiersFired },
        .member("acknowledgedAt", .nullable(.instant)) { $0.acknowledged?.at },
        .member("acknowledgedBy", .nullable(.string)) { $0.acknowledged?.by },
        .member("acknowledgeNote", .nullable(.string)) { $0.acknowledged?.note },
        .member("resolvedAt", .nullable(.instant)) { $0.resolved?.at },
        .member("resolvedBy", .nullable(.string)) { $0.resolved?.by },
        .member("resolveNote", .nullable(.string)) { $0.resolved?.note },
        .member("resolveSodium", .nullable(.number)) { $0.resolveSodium },
        .member("days", .array(.object(alertDay))) { $0.days },
        .member("newDataSinceAcknowledged", .nullable(.instant)) { $0.newDataAt },
        .member("mergedInto", .nullable(.id)) { $0.mergedInto },
    ])

    /// One day an alert covers, with that day's level and reasons.
    static let alertDay = ResponseShape<AlertView.CoveredDay>("AlertDay", [
        .member("date", .date) { $0.date },
        .member("pod", .integer) { $0.pod },
        .member("level", .level) { $0.level },
        .member("reasons", .array(.object(DayJSON.storedReason))) { $0.reasons },
    ])
}
