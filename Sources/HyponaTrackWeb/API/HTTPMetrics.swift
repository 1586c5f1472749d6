import HTTPServer
import HyponaTrackDomain

/// The HTTP server's connections and limits in `/metrics` (docs/operations.md §9.2).
enum HTTPMetrics {
    static func families(_ server: any HTTPTransportStatus) -> [MetricFamily] {
        let c = server.connectionStatistics
        var closed = MetricFamily("hyponatrack_http_connections_closed_total", .counter,
                                  "Connections the server closed or refused because of a limit, by reason.")
        closed.add(Double(c.refusedPerIP), labels: [("reason", "per_ip_limit")])
        closed.add(Double(c.closedHeaderDeadline), labels: [("reason", "header_deadline")])
        closed.add(Double(c.closedBodyDeadline), labels: [("reason", "body_deadline")])
        closed.add(Double(c.evicted), labels: [("reason", "evicted_idle")])
        closed.add(Double(c.evictedSlowBody), labels: [("reason", "evicted_slow_body")])
        return [
            .gauge("hyponatrack_http_connections_open", "Client connections open now.", Double(c.open)),
            .gauge("hyponatrack_http_requests_queued", "Requests waiting for a handler thread.", Double(server.queuedRequests)),
            closed,
        ]
    }
}
