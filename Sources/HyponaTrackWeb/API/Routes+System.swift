import Foundation
import HTJSON
import HTTPServer
import HyponaTrackDomain

extension Routes {
    /// Health, metrics and the API description: no token (they hold no patient data).
    /// `metrics` renders for the request (the server that received it counts its connections);
    /// `openAPI` is the document of every route, this table's included.
    static func system(health: @escaping @Sendable () -> Health, metrics: @escaping @Sendable (HTTPRequest) -> String,
                       openAPI: JSONValue) -> [Route] {
        [
            Route(.get, "/healthz", access: .anonymous, touches: .system, summary: "Liveness and readiness",
                  responses: [200: ("healthy", S.ref("Health")), 503: ("the database cannot be written", S.ref("Health"))]) { _ in
                let h = health()
                return .json(h.writable ? .ok : .serviceUnavailable, HealthJSON.health(h))
            },
            Route(.get, "/metrics", access: .anonymous, touches: .system, summary: "Prometheus metrics (text format 0.0.4)",
                  responses: [200: ("metrics", nil)]) { ctx in
                .raw(HTTPResponse(status: .ok, contentType: "text/plain; version=0.0.4; charset=utf-8", text: metrics(ctx.request)))
            },
            Route(.get, "/openapi.json", access: .anonymous, touches: .system, summary: "This API's OpenAPI 3.1 description",
                  responses: [200: ("the OpenAPI document", S.openObject())]) { _ in
                .json(200, openAPI)
            },
        ]
    }
}

/// The `/healthz` body.
enum HealthJSON {
    static func health(_ h: Health) -> JSONValue {
        ["status": .string(h.writable ? "ok" : "unavailable"), "database": .string(h.writable ? "ok" : "unwritable"),
         "sync": SyncJSON.health(h.sync, now: h.checkedAt),
         "scheduler": ["lastTickAt": .string(h.schedulerLastTickAt.map { iso8601UTC(milliseconds: $0) })],
         "escalation": ["configured": .bool(h.escalationConfigured)],
         "rulesVersion": .string(h.rulesVersion), "version": .string(h.version)]
    }
}
