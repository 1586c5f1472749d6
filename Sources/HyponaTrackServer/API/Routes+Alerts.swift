import HTJSON

extension Routes {
    /// Alerts (nurses acknowledge and resolve) and hook delivery status.
    static func alerts(_ service: StudyService, hooksStatus: @escaping @Sendable () throws -> JSONValue) -> [Route] {
        let common: [Int: (description: String, schema: JSONValue?)] = [
            400: ("invalid request", S.error), 401: ("no valid staff token", S.error), 403: ("role not allowed", S.error)]
        func with(_ extra: [Int: (description: String, schema: JSONValue?)]) -> [Int: (description: String, schema: JSONValue?)] {
            common.merging(extra) { _, new in new }
        }
        return [
            Route("GET", "/v1/alerts", access: .staff(.read), summary: "Alerts, newest first (open=true: not yet resolved)",
                  responses: with([200: ("alerts", S.array(S.openObject()))])) { ctx in
                .json(200, try service.alerts(open: ctx.query("open")))
            },
            Route("POST", "/v1/alerts/{alertId}/acknowledgement", access: .staff(.write),
                  summary: "Acknowledge an alert: the escalation stops", request: S.body([("note", S.string(min: 1, max: 1000))]),
                  responses: with([200: ("acknowledged", S.openObject()), 404: ("no such alert", S.error),
                                   409: ("already acknowledged or resolved", S.error)])) { ctx in
                .json(200, try service.acknowledgeAlert(id: ctx.parameter("alertId"), body: ctx.body, actor: ctx.actor))
            },
            Route("POST", "/v1/alerts/{alertId}/resolution", access: .staff(.write),
                  summary: "Resolve an alert with a note (and the measured sodium, if any)",
                  request: S.body([("note", S.string(min: 1, max: 1000)), ("sodium", S.number(100, 180))], required: ["note"]),
                  responses: with([200: ("resolved", S.openObject()), 404: ("no such alert", S.error),
                                   409: ("already resolved", S.error)])) { ctx in
                .json(200, try service.resolveAlert(id: ctx.parameter("alertId"), body: ctx.body, actor: ctx.actor))
            },
            Route("GET", "/v1/hooks/status", access: .staff(.read), summary: "Per hook: pending, delivered, dead letters, disabled",
                  responses: with([200: ("hooks", S.array(S.openObject()))])) { _ in .json(200, try hooksStatus()) },
        ]
    }
}
