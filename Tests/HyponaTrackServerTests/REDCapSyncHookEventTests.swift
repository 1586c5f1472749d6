import Foundation
import Testing
import HTJSON
import SQLite
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The sync's own hook events over the real database: `sync.halted` from a real 403 of
/// `scripts/redcap-emulator` (a token it does not accept), `sync.unhealthy` from a REDCap that
/// cannot be reached; a restart is a new sync worker on the same database file.
@Suite struct REDCapSyncHookEventTests {
    static let t0 = TestDatabase.now
    static let quiet = Logger(minimum: .error, capture: { _ in })
    static let ward = HookConfiguration(name: "ward", kind: .command(path: "/bin/true", args: [], timeoutSeconds: 5),
                                        events: [.syncHalted, .syncUnhealthy])

    static func worker(_ store: DaemonDatabase, url: String, caFile: String? = nil, clock: any ServerClock,
                       unhealthyAfterSeconds: Double = 3600) -> REDCapSync {
        var settings = REDCapSync.Settings()
        settings.unhealthyAfterSeconds = unhealthyAfterSeconds
        let client = REDCapClient(url: url, token: String(repeating: "0", count: 32), caFile: caFile, pacer: RequestPacer(perMinute: 600))
        return REDCapSync(database: store.database, client: client, settings: settings, logger: quiet, metrics: SyncMetrics(), clock: clock,
                          events: SyncHookEvents(hooks: [ward]))
    }

    static func queueRow(_ db: Database, _ record: String, at t: Double) throws {
        try db.write { c in
            try OutboxRepository.enqueue(c, record: record, instrument: "patient_baseline", instance: 0,
                                         row: [("record_id", record)], at: epochMilliseconds(t))
        }
    }

    static func events(_ db: Database, _ type: HookEventType) throws -> Int {
        try db.read { try #require(try $0.queryOne("SELECT COUNT(*) FROM hook_outbox WHERE type = ?", [type.rawValue])?.int(0)) }
    }

    static func isHalted(_ db: Database) throws -> Bool { try db.read { try OutboxRepository.isHalted($0) } }

    @Test func theHaltAndItsHookEventCommitTogetherOrNotAtAll() throws {
        let store = try DaemonDatabase()
        let instruments = URL(fileURLWithPath: HookTransportTests.ScriptPeer.scripts).deletingLastPathComponent()
            .appendingPathComponent("instruments/hyponatrack_data_dictionary.csv").path
        let emulator = try HookTransportTests.ScriptPeer("redcap-emulator") { dir in
            ["--make-cert", dir.path("tls"), "--port", "0", "--dictionary", instruments, "--token", String(repeating: "A", count: 32)]
        }
        let sync = Self.worker(store, url: "https://127.0.0.1:\(emulator.port)/api/", caFile: emulator.caFile,
                               clock: SimulationClock(Self.t0))
        try Self.queueRow(store.database, "HT-1", at: Self.t0)
        // The hook event cannot be queued (as on a full disk): a trigger from another connection.
        let other = try Connection(path: store.database.path)
        defer { other.close() }
        try other.execute("""
            CREATE TRIGGER hook_outbox_full BEFORE INSERT ON hook_outbox
            BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
            """)

        let requests = { sync.metrics.values.withLock { $0.sendRequests } }
        _ = try? sync.cycle()                                        // REDCap answers 403
        #expect(try Self.isHalted(store.database) == (try Self.events(store.database, .syncHalted) == 1),
                "halted without the sync.halted event (or the reverse)")
        #expect(try !Self.isHalted(store.database), "neither committed")
        #expect(requests() == 1)
        // The halt is held in memory: each cycle tries to write it and sends nothing (before, the
        // batch went to REDCap again on every cycle, every 5 s).
        for _ in 1...3 { #expect(throws: (any Error).self) { try sync.cycle() } }
        #expect(requests() == 1, "the batch was sent again while the halt was unwritten")
        try other.execute("DROP TRIGGER hook_outbox_full")
        #expect(try !sync.cycle(), "the held halt is written; nothing is sent")
        #expect(try Self.isHalted(store.database) && Self.events(store.database, .syncHalted) == 1)
        #expect(requests() == 1)
    }

    @Test func unhealthyIsRaisedOncePerEpisodeAcrossRestarts() throws {
        let store = try DaemonDatabase()
        let clock = SimulationClock(Self.t0)
        let unreachable = "https://127.0.0.1:9/api/"                  // connection refused: a transient failure
        try Self.queueRow(store.database, "HT-1", at: Self.t0)
        clock.set(Self.t0 + 120)
        _ = try Self.worker(store, url: unreachable, clock: clock, unhealthyAfterSeconds: 60).cycle()
        #expect(try Self.events(store.database, .syncUnhealthy) == 1)
        for restart in 1...2 {
            clock.set(Self.t0 + 120 + Double(restart) * 10)
            _ = try Self.worker(store, url: unreachable, clock: clock, unhealthyAfterSeconds: 60).cycle()
            #expect(try Self.events(store.database, .syncUnhealthy) == 1, "not raised again after restart \(restart)")
        }
        // REDCap took the row: the episode ends; a later backlog is a new one, also after a restart.
        try store.database.write { try $0.execute("DELETE FROM sync_outbox") }
        clock.set(Self.t0 + 200)
        _ = try Self.worker(store, url: unreachable, clock: clock, unhealthyAfterSeconds: 60).cycle()
        try Self.queueRow(store.database, "HT-2", at: Self.t0 + 200)
        clock.set(Self.t0 + 300)
        _ = try Self.worker(store, url: unreachable, clock: clock, unhealthyAfterSeconds: 60).cycle()
        #expect(try Self.events(store.database, .syncUnhealthy) == 2)
    }
}
