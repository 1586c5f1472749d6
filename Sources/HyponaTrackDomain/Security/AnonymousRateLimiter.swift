import Synchronization

/// The token bucket per client address behind the anonymous routes (`POST /v1/activate`, and
/// later the console's login and the web app's activation): `perMinute` tokens, refilled evenly
/// (one every 60/`perMinute` s), at most `perMinute` held.
///
/// Only refused or failed attempts take a token (`charge`), so a study activating a whole
/// cohort at speed from one ward network is never throttled; once an address's bucket is empty
/// (`admit` fails), its requests to such routes are refused with `Retry-After` before anything
/// else happens. A charge may take the bucket below zero, down to `-perMinute`: requests that
/// were admitted together while one token was left each pay for their failure, so parallel
/// connections cannot multiply the rate.
///
/// Memory is bounded: an address whose bucket has refilled is forgotten (a full bucket is what
/// an unknown address gets), and at most `maxAddresses` are tracked (`BoundedTable`: when full,
/// the buckets nearest to full are forgotten first).
public final class AnonymousRateLimiter: Sendable {
    /// The default cap on tracked addresses: about 100 bytes each, so ≈ 1.6 MB at most.
    public static let defaultMaxAddresses = 16_384

    struct Bucket {
        var tokens: Double
        /// Epoch seconds of `tokens`.
        var at: Double
    }

    public let perMinute: Int
    let clock: any ServerClock
    private let buckets: Mutex<BoundedTable<Bucket>>

    public init(perMinute: Int, maxAddresses: Int = AnonymousRateLimiter.defaultMaxAddresses, clock: any ServerClock) {
        precondition(perMinute > 0, "a bucket needs at least one token a minute")
        self.perMinute = perMinute
        self.clock = clock
        buckets = Mutex(BoundedTable(capacity: maxAddresses))
    }

    private var capacity: Double { Double(perMinute) }
    /// Tokens per second.
    private var rate: Double { Double(perMinute) / 60 }

    /// The bucket's level at `now`, refilled since it was last touched.
    private func level(_ b: Bucket, _ now: Double) -> Double {
        min(capacity, b.tokens + max(0, now - b.at) * rate)
    }

    /// Nil when `ip` may make an attempt now; otherwise the whole seconds until it may
    /// (≥ 1, for `Retry-After`). Takes nothing.
    public func admit(_ ip: String) -> Int? {
        let now = clock.now()
        return buckets.withLock { table -> Int? in
            guard let bucket = table[ip] else { return nil }
            let tokens = level(bucket, now)
            if tokens >= capacity { table.removeValue(forKey: ip) }   // refilled: forget it
            guard tokens < 1 else { return nil }
            return max(1, Int(((1 - tokens) / rate).rounded(.up)))
        }
    }

    /// Takes one token from `ip`'s bucket: its attempt was refused or failed.
    public func charge(_ ip: String) {
        let now = clock.now()
        buckets.withLock { table in
            let tokens = table[ip].map { level($0, now) } ?? capacity
            table.set(ip, Bucket(tokens: max(-capacity, tokens - 1), at: now),
                      isIdle: { level($0, now) >= capacity }, rank: { -level($0, now) })
        }
    }

    /// Addresses with a bucket that is not full (forgotten ones refill lazily, so this may
    /// include buckets that have refilled since).
    public var trackedAddresses: Int { buckets.withLock { $0.count } }
}
