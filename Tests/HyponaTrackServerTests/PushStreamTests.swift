import Foundation
import Synchronization
import Testing
@testable import HyponaTrackCore
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackServer

/// The push sender's stream (``DueFeed``): due rows are read a batch at a time after where the
/// last reading stopped, so a sender that takes many before any outcome is stored never gets one
/// twice; a device has one delivery in flight at a time; a device found gone gets none of its
/// later ones.
@Suite struct PushStreamTests {
    /// A multiplexing transport that takes everything `next` gives before it answers any, then
    /// answers them all (`gone` for the listed device tokens… here endpoints), and repeats.
    final class GreedyTransport: PushTransport {
        let goneEndpoints: Set<String>
        let state = Mutex<(rounds: [[PushItem]], sent: [PushItem])>(([], []))
        init(gone: Set<String> = []) { goneEndpoints = gone }
        var multiplexes: Bool { true }
        func send(_ message: PushMessage, to address: PushAddress, now: Int64) -> PushSendResult { .sent }
        func stream(next: () -> (Int, PushItem)?, now: Int64, done: (Int, PushSendResult) -> Void) {
            while true {
                var round: [(Int, PushItem)] = []
                while let x = next() { round.append(x) }
                if round.isEmpty { return }
                state.withLock { $0.rounds.append(round.map(\.1)); $0.sent += round.map(\.1) }
                for (i, item) in round {
                    guard case .webPush(let endpoint, _, _) = item.address else { done(i, .failed("not web push")); continue }
                    done(i, goneEndpoints.contains(endpoint) ? .gone("Web Push HTTP 410") : .sent)
                }
            }
        }
    }

    struct Scene {
        let base: PushDeliveryTests.Scene
        let patientId: Int64
        let endpoints: [String]

        /// PU-1 with four browsers and `reminders` reminders due now, each to every browser.
        init(reminders: Int) throws {
            base = try PushDeliveryTests.Scene()
            endpoints = ["https://push.test.invalid/sub/1"] + (2...4).map { "https://push.test.invalid/sub/\($0)" }
            for n in 2...4 {
                let r = base.h.send(.put, "/v1/me/devices/browser-0\(n)", body: try PushDeviceTests.subscription(endpoint: endpoints[n - 1]),
                                    token: base.token)
                guard r.status == 201 else { throw TestError("device \(n): \(r.json)") }
            }
            let ms = Berlin.ms(Berlin.at("2026-03-09", "07:30"))
            let id = try base.h.app.database.read { db in try #require(try PatientRepository.load(db, studyId: "PU-1")).id }
            patientId = id
            try base.h.app.database.write { db in
                let devices = try PushDeviceRepository.active(db, patientId: id)
                for k in 0..<reminders {
                    let reminder = PushReminder(kind: "check", date: LocalDate("2026-03-09")!, slot: .morning, key: "test-\(k)",
                                                dueAt: ms, expiresAt: ms + 3_600_000)
                    for device in devices {
                        try PushDeliveryRepository.enqueue(db, patientId: id, reminder, device: device, collapseId: "c\(k)", at: ms)
                    }
                }
            }
        }

        func delivery(_ transport: any PushTransport) -> PushDelivery {
            let d = base.h.app.domain
            return PushDelivery(database: d.database, transports: [.webpush: transport], rules: d.rules, logger: d.logger,
                                clock: base.clock, metrics: d.pushMetrics, random: PushDeliveryTests.FixedRandom())
        }

        func states() throws -> [String: Int] {
            try base.h.app.database.read { db in
                try db.query("SELECT state, COUNT(*) FROM push_deliveries GROUP BY state").reduce(into: [:]) {
                    $0[try $1.string(0)] = Int(try $1.int64(1))
                }
            }
        }
    }

    @Test func aFeedReadsOnPastEachBatchWithoutGivingARowTwiceWhileNoOutcomeIsStored() throws {
        let s = try Scene(reminders: 3)
        let feed = DueFeed(database: s.base.h.app.database, platform: .webpush, clock: s.base.clock, batchSize: 5)
        var given: [Int64] = []
        // Everything taken, nothing recorded: the rows stay pending in the store throughout.
        while let d = try feed.next(skipping: []) {
            given.append(d.id)
            feed.finished(d)
        }
        #expect(given.count == 12, "3 reminders × 4 browsers, read 5 at a time")
        #expect(Set(given).count == given.count, "none given twice")
        #expect(try s.states() == ["pending": 12])
    }

    @Test func aDeviceHasOneDeliveryInFlightAtATime() throws {
        let s = try Scene(reminders: 3)
        let transport = GreedyTransport()
        try s.delivery(transport).deliverDue()
        let rounds = transport.state.withLock { $0.rounds }
        #expect(rounds.count == 3, "each browser's three reminders one after another: \(rounds.map(\.count))")
        for round in rounds {
            let endpoints = round.compactMap { item -> String? in
                if case .webPush(let e, _, _) = item.address { return e } else { return nil }
            }
            #expect(Set(endpoints).count == endpoints.count, "two deliveries to one browser in flight at once")
        }
        #expect(try s.states() == ["sent": 12])
    }

    @Test func aDeviceFoundGoneGetsNoneOfItsLaterDeliveries() throws {
        let s = try Scene(reminders: 3)
        let transport = GreedyTransport(gone: [s.endpoints[1]])
        try s.delivery(transport).deliverDue()
        let sent = transport.state.withLock { $0.sent }
        let toGone = sent.filter { if case .webPush(let e, _, _) = $0.address { return e == s.endpoints[1] } else { return false } }
        #expect(toGone.count == 1, "the gone browser got its first delivery only")
        #expect(try s.states() == ["sent": 9, "gone": 1, "pending": 2])
        let audit = try s.base.h.app.database.read { db in try db.query("SELECT 1 FROM audit_log WHERE action = 'device.gone'").count }
        #expect(audit == 1)
    }
}
