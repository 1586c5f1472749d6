import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Retry jitter comes from an injected random source; with a seeded one the waits are exact.
/// The expected numbers were computed outside Swift (SplitMix64 from seed 42: 0.7415648787718233,
/// 0.1599103928769201, …).
@Suite struct RetryJitterTests {
    static func delivery(_ random: any RandomSource) throws -> (DaemonDatabase, HookDelivery) {
        let store = try DaemonDatabase()
        return (store, HookDelivery(database: store.database, transports: [:], logger: Logger(minimum: .error, capture: { _ in }),
                                    clock: SystemClock(), random: random))
    }

    @Test func theSeededSourceRepeatsSplitMix64() {
        let random = SeededRandomSource(seed: 42)
        #expect([random.nextUnit(), random.nextUnit()] == [0.7415648787718233, 0.1599103928769201])
        #expect(SeededRandomSource(seed: 42).nextUnit() == 0.7415648787718233)
    }

    @Test func aHookRetryWaitsTheScheduledStepJitteredByTheSeededSource() throws {
        let (store, delivery) = try Self.delivery(SeededRandomSource(seed: 42))
        // After one failed attempt: 300 s × (0.9 + 0.2 × 0.7415648787718233).
        #expect(delivery.retryDelay(attempts: 1, retryAfter: nil) == 314.4938927263094)
        withExtendedLifetime(store) {}
    }

    @Test func aHookRetryHonoursRetryAfterWithinOneSecondAndOneDayWithoutJitter() throws {
        let (store, delivery) = try Self.delivery(SeededRandomSource(seed: 42))
        #expect(delivery.retryDelay(attempts: 3, retryAfter: 120) == 120)
        #expect(delivery.retryDelay(attempts: 0, retryAfter: 0) == 1)
        #expect(delivery.retryDelay(attempts: 0, retryAfter: 1e9) == 86_400)
        withExtendedLifetime(store) {}
    }

    @Test func aSyncBackoffDoublesPerAttemptJitteredByTheSeededSource() throws {
        let store = try DaemonDatabase()
        let sync = REDCapSync(database: store.database, client: REDCapClient(url: "https://redcap.invalid/api/", token: "0123456789ABCDEF0123456789ABCDEF",
                                                                            caFile: nil, pacer: RequestPacer(perMinute: 60)),
                              settings: REDCapSync.Settings(), logger: Logger(minimum: .error, capture: { _ in }), metrics: SyncMetrics(),
                              clock: SystemClock(), random: SeededRandomSource(seed: 42))
        // After three failed attempts: 2 s × 2³ × (0.75 + 0.5 × 0.7415648787718233).
        #expect(sync.retryDelay(attempts: 3) == 17.932519030174586)
        // Capped at 15 min, then jittered: 900 s × (0.75 + 0.5 × 0.1599103928769201).
        #expect(sync.retryDelay(attempts: 30) == 746.9596767946141)
    }
}
