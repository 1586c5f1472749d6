import HyponaTrackDomain
/// A route attribute: the route is anonymous and guarded by the per-address token bucket
/// (`limits.anonymousPerMinute`, docs/operations.md). A route declares it
/// (`Route(…, limit: limit, …)`) and the router applies it: before anything else an address
/// with an empty bucket is answered 429 `rate_limited` with `Retry-After` (no token checked, no
/// body parsed, no database touched); afterwards any 4xx answer takes a token. Routes sharing
/// one limiter share the address's bucket (activation, console login and the web app's
/// activation all drain the same one).
public struct AnonymousLimit: Sendable {
    let limiter: AnonymousRateLimiter
    /// Told of each request refused for an empty bucket, with the client address (metrics,
    /// the refusal summaries of the audit trail).
    let refused: @Sendable (_ ip: String) -> Void

    public init(limiter: AnonymousRateLimiter, refused: @escaping @Sendable (_ ip: String) -> Void = { _ in }) {
        self.limiter = limiter
        self.refused = refused
    }

    /// Throws 429 `rate_limited` when `ip`'s bucket is empty.
    func admit(_ ip: String) throws {
        guard let seconds = limiter.admit(ip) else { return }
        refused(ip)
        throw APIError.rateLimited(retryAfter: seconds)
    }

    /// After an admitted request: a refused or failed attempt (any 4xx) takes a token; a
    /// success, and a 5xx (the server's fault, not the client's), take none.
    func settle(_ ip: String, status: Int) {
        if (400..<500).contains(status) { limiter.charge(ip) }
    }
}
