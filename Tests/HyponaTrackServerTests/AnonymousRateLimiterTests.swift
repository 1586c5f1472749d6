import Synchronization
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The per-address token bucket of the anonymous routes, on a clock the test sets (no sleeps).
@Suite struct AnonymousRateLimiterTests {
    let clock = SimulationClock(TestDatabase.now)

    func limiter(perMinute: Int = 30, maxAddresses: Int = AnonymousRateLimiter.defaultMaxAddresses) -> AnonymousRateLimiter {
        AnonymousRateLimiter(perMinute: perMinute, maxAddresses: maxAddresses, clock: clock)
    }

    func advance(_ seconds: Double) { clock.set(clock.now() + seconds) }

    @Test func anAddressIsAdmittedUntilThirtyRefusalsEmptyItsBucket() {
        let l = limiter()
        for _ in 1...30 {
            #expect(l.admit("198.51.100.7") == nil)
            l.charge("198.51.100.7")
        }
        #expect(l.admit("198.51.100.7") == 2, "one token every 2 s at 30 a minute")
    }

    @Test func theBucketRefillsOneTokenEveryTwoSeconds() {
        let l = limiter()
        for _ in 1...30 { l.charge("198.51.100.7") }
        advance(1)
        #expect(l.admit("198.51.100.7") == 1)
        advance(1)
        #expect(l.admit("198.51.100.7") == nil)
        l.charge("198.51.100.7")
        #expect(l.admit("198.51.100.7") == 2)
    }

    @Test func successesTakeNoTokenAndOnlyClientErrorsDo() {
        let l = limiter(perMinute: 3)
        let limit = AnonymousLimit(limiter: l)
        for _ in 1...100 { limit.settle("198.51.100.7", status: 200) }
        for _ in 1...10 { limit.settle("198.51.100.7", status: 500) }
        #expect(l.admit("198.51.100.7") == nil, "successes and server faults are free")
        for status in [401, 410, 429] { limit.settle("198.51.100.7", status: status) }
        #expect(l.admit("198.51.100.7") != nil)
    }

    @Test func anEmptyBucketIsRefusedAsRateLimitedWithRetryAfterAndReported() throws {
        let l = limiter(perMinute: 1)
        let reported = Reported()
        let limit = AnonymousLimit(limiter: l) { ip in reported.add(ip) }
        l.charge("198.51.100.7")
        let error = #expect(throws: APIError.self) { try limit.admit("198.51.100.7") }
        #expect(error?.status == 429 && error?.code == "rate_limited" && error?.retryAfter == 60)
        #expect(reported.values == ["198.51.100.7"])
        try limit.admit("203.0.113.5")
        #expect(reported.values == ["198.51.100.7"], "an admitted request is not reported")
    }

    @Test func requestsAdmittedTogetherEachPayForTheirFailure() {
        let l = limiter()
        for _ in 1...29 { l.charge("198.51.100.7") }
        // One token left: five parallel connections are all admitted before any has failed…
        for _ in 1...5 { #expect(l.admit("198.51.100.7") == nil) }
        for _ in 1...5 { l.charge("198.51.100.7") }
        // …and the bucket owes four: (1 − (−4)) tokens at 0.5 a second.
        #expect(l.admit("198.51.100.7") == 10)
    }

    @Test func theDebtIsCappedAtOneBucket() {
        let l = limiter()
        for _ in 1...1000 { l.charge("198.51.100.7") }
        #expect(l.admit("198.51.100.7") == 62, "from −30 back to 1 token")
    }

    @Test func eachAddressHasItsOwnBucket() {
        let l = limiter()
        for _ in 1...30 { l.charge("198.51.100.7") }
        #expect(l.admit("198.51.100.7") != nil)
        #expect(l.admit("203.0.113.5") == nil)
        #expect(l.admit("2001:db8::1") == nil)
    }

    @Test func aRefilledBucketIsForgotten() {
        let l = limiter()
        l.charge("198.51.100.7")
        #expect(l.trackedAddresses == 1)
        advance(2)
        #expect(l.admit("198.51.100.7") == nil)
        #expect(l.trackedAddresses == 0)
    }

    @Test func aFloodFromManyAddressesKeepsTheTableWithinItsCap() {
        let l = limiter(maxAddresses: 64)
        for i in 0..<10_000 { l.charge("10.\(i / 65_536).\(i / 256 % 256).\(i % 256)") }
        #expect(l.trackedAddresses <= 64)
        // An address that emptied its bucket is kept over those that failed once.
        for _ in 1...30 { l.charge("198.51.100.7") }
        for i in 0..<1_000 { l.charge("10.9.\(i / 256).\(i % 256)") }
        #expect(l.trackedAddresses <= 64)
        #expect(l.admit("198.51.100.7") != nil)
    }

    @Test func aBoundedTableDropsIdleEntriesBeforeRankedOnes() {
        var table = BoundedTable<Int>(capacity: 4)
        for (key, value) in [("a", 0), ("b", 5), ("c", 0), ("d", 7)] { table.set(key, value, isIdle: { $0 == 0 }, rank: Double.init) }
        table.set("e", 3, isIdle: { $0 == 0 }, rank: Double.init)
        #expect(Set(table.entries.keys) == ["b", "d", "e"], "the idle a and c went first")
        table.set("f", 9, isIdle: { $0 == 0 }, rank: Double.init)
        table.set("g", 1, isIdle: { $0 == 0 }, rank: Double.init)
        #expect(Set(table.entries.keys) == ["b", "d", "f", "g"], "then the lowest ranked, e")
    }
}

/// Values reported from a `@Sendable` callback.
final class Reported: Sendable {
    private let storage = Mutex<[String]>([])
    func add(_ value: String) { storage.withLock { $0.append(value) } }
    var values: [String] { storage.withLock { $0 } }
}
