/// Open connections and what the server's connection limits did since it started, for
/// `/metrics` (``HTTPServer/connectionStatistics``).
public struct HTTPConnectionStatistics: Sendable, Equatable {
    /// Connections open now.
    public var open: Int
    /// Connections refused at accept because their IP already had the most allowed.
    public var refusedPerIP: Int
    /// Connections closed because their request headers were not complete in time.
    public var closedHeaderDeadline: Int
    /// Connections closed because their body was not complete in time.
    public var closedBodyDeadline: Int
    /// Connections waiting for request headers closed to make room near the connection limit.
    public var evicted: Int
    /// Connections whose body arrived too slowly (under 1 KiB/s on average), closed to make
    /// room near the connection limit.
    public var evictedSlowBody: Int
}
