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
                  responses: [200: ("healthy", HealthJSON.health.reference), 503: ("the database cannot be written", HealthJSON.health.reference)]) { _ in
                let h = health()
                return .json(h.writable ? .ok : .serviceUnavailable, HealthJSON.health.encode(h))
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
    static let health = ResponseShape<Health>("Health", [
        .member("status", .string(S.oneOf(["ok", "unavailable"]))) { $0.writable ? "ok" : "unavailable" },
        .member("database", .string(S.oneOf(["ok", "unwritable"]))) { $0.writable ? "ok" : "unwritable" },
        .member("sync", .object(SyncJSON.health)) { $0 },
        .member("scheduler", .object(ResponseShape<Health>(nil, [
            .member("lastTickAt", .nullable(.instant)) { $0.schedulerLastTickAt },
        ]))) { $0 },
        .member("backup", .object(ResponseShape<Health>(nil, [
            .member("configured", .bool) { $0.backupConfigured },
            .member("lastGoodAt", .nullable(.instant)) { $0.backupLastGoodAt },
            .member("ageSeconds", .nullable(.number)) { $0.backupAgeSeconds },
        ]))) { $0 },
        .member("escalation", .object(ResponseShape<Health>(nil, [
            .member("configured", .bool) { $0.escalationConfigured },
        ]))) { $0 },
        .member("rulesVersion", .string) { $0.rulesVersion },
        .member("version", .string) { $0.version },
    ])
}
