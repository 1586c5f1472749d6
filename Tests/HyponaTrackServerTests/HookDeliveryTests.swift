import Foundation
import Synchronization
import Testing
import HTJSON
import SQLite
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// A transport that answers from a script (then `.delivered`) and records the event ids.
final class ScriptedTransport: HookTransport {
    private let script: Mutex<[DeliveryResult]>
    private let calls = WaitableState<[String]>([])

    init(_ script: [DeliveryResult]) { self.script = Mutex(script) }

    func deliver(eventId: String, timestamp: Int64, body: [UInt8]) -> DeliveryResult {
        calls.change { $0.append(eventId) }
        return script.withLock { $0.isEmpty ? .delivered : $0.removeFirst() }
    }

    var eventIds: [String] { calls.read { $0 } }

    /// Waits up to 10 s for the `count`th call; whether it came.
    func waitForCalls(_ count: Int) -> Bool {
        calls.wait(until: .after(seconds: 10)) { $0.count >= count ? true : nil } ?? false
    }
}

/// Hook delivery in process, over a real database, with a settable clock and seeded jitter:
/// when a retry falls due is checked by moving the clock, not by waiting.
@Suite struct HookDeliveryTests {
    static let t0 = TestDatabase.now
    static let quiet = Logger(minimum: .error, capture: { _ in })

    static func queue(_ db: Database, hook: String = "ward") throws -> String {
        try #require(try db.write { c in
            try HookOutbox.enqueue(c, type: .reminderDue, data: ["studyId": "HT-1"], hooks: [hook], at: epochMilliseconds(t0))
        })
    }

    static func nextAttemptAt(_ db: Database) throws -> Int64 {
        try db.read { try #require(try $0.queryOne("SELECT next_attempt_at FROM hook_outbox")?.int64(0)) }
    }

    @Test func aFailedDeliveryIsRetriedAtItsJitteredTimeAndNotBefore() throws {
        let store = try DaemonDatabase()
        let clock = SimulationClock(Self.t0)
        let transport = ScriptedTransport([.retry(reason: "HTTP 503", afterSeconds: nil), .retry(reason: "HTTP 503", afterSeconds: nil)])
        let delivery = HookDelivery(database: store.database, transports: ["ward": transport], logger: Self.quiet, clock: clock,
                                    random: SeededRandomSource(seed: 42))
        let eventId = try Self.queue(store.database)
        let t0 = epochMilliseconds(Self.t0)

        #expect(try delivery.deliverNext("ward"))
        // 5 s × (0.9 + 0.2 × 0.7415648787718233, the seed's first draw) = 5.2415… s.
        #expect(try Self.nextAttemptAt(store.database) == t0 + 5_241)
        clock.set(Self.t0 + 5.240)
        #expect(try !delivery.deliverNext("ward"), "not due a millisecond early")
        #expect(transport.eventIds.count == 1)
        clock.set(Self.t0 + 5.241)
        #expect(try delivery.deliverNext("ward"))
        // 5 min × (0.9 + 0.2 × 0.1599103928769201, the second draw) = 279.5946… s.
        #expect(try Self.nextAttemptAt(store.database) == t0 + 5_241 + 279_594)
        clock.set(Self.t0 + 5.241 + 279.593)
        #expect(try !delivery.deliverNext("ward"))
        clock.set(Self.t0 + 5.241 + 279.594)
        #expect(try delivery.deliverNext("ward"))
        #expect(transport.eventIds == [eventId, eventId, eventId], "every attempt carries the same webhook-id")
        let status = try store.database.read { try HookOutboxRepository.summary($0, hook: "ward") }
        #expect(status.delivered == 1 && status.pending == 0 && status.lastError == nil)
    }

    @Test func goneDisablesTheHookAndDeadLettersWhatIsStillQueued() throws {
        let store = try DaemonDatabase()
        let transport = ScriptedTransport([.gone("HTTP 410")])
        let delivery = HookDelivery(database: store.database, transports: ["ward": transport], logger: Self.quiet,
                                    clock: SimulationClock(Self.t0))
        _ = try Self.queue(store.database)
        _ = try Self.queue(store.database)
        #expect(try delivery.deliverNext("ward"))
        #expect(try delivery.deliverNext("ward"))
        #expect(transport.eventIds.count == 1, "a disabled endpoint is not called again")
        let status = try store.database.read { try HookOutboxRepository.summary($0, hook: "ward") }
        #expect(status.dead == 2 && status.disabledReason == "410 Gone: HTTP 410")
        #expect(status.deadLetters.first?.error == "the endpoint is disabled: 410 Gone: HTTP 410")
    }

    @Test func theDeliveryServiceRunsAWorkerPerHookAndStopsWithinItsDeadline() throws {
        let store = try DaemonDatabase()
        let ward = ScriptedTransport([]), oncall = ScriptedTransport([])
        let delivery = HookDelivery(database: store.database, transports: ["ward": ward, "oncall": oncall], logger: Self.quiet,
                                    clock: SystemClock())
        let log = CapturedLog()
        let group = ServiceGroup([delivery], logger: log.logger)
        group.start()
        _ = try Self.queue(store.database, hook: "ward")
        _ = try Self.queue(store.database, hook: "oncall")
        delivery.wake()
        #expect(ward.waitForCalls(1) && oncall.waitForCalls(1))
        #expect(group.stop().isEmpty)
        #expect(log.services("service stopped") == ["hook-delivery"])
        let delivered = try store.database.read { c in
            try ["ward", "oncall"].map { try HookOutboxRepository.summary(c, hook: $0).delivered }
        }
        #expect(delivered == [1, 1], "a stop lets the delivery in flight record its outcome")
    }
}

/// An outcome the outbox cannot take (the write fails, as on a full disk) is not a reason to
/// call the receiver again: a real command hook counts its calls, a trigger added from another
/// connection to the real database file makes every outbox update fail until it is dropped.
extension HookDeliveryTests {
    final class FailingOutbox {
        let connection: Connection
        init(_ database: Database) throws {
            connection = try Connection(path: database.path)
            try connection.execute("""
                CREATE TRIGGER hook_outbox_full BEFORE UPDATE ON hook_outbox
                BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
                """)
        }
        func repair() throws { try connection.execute("DROP TRIGGER hook_outbox_full") }
        deinit { connection.close() }
    }

    /// A command hook that appends its event id to `calls` and exits with `status`.
    static func pager(_ dir: String, status: Int) throws -> (transport: CommandTransport, calls: () -> [String]) {
        let calls = dir + "/calls"
        let script = dir + "/page"
        try "#!/bin/sh\ncat > /dev/null\necho \"$HYPONATRACK_EVENT_ID\" >> \(calls)\nexit \(status)\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let read = { ((try? String(contentsOfFile: calls, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
        return (CommandTransport(path: script), read)
    }

    static func row(_ db: Database) throws -> (state: String, attempts: Int, next: Int64) {
        try db.read { c in
            let r = try #require(try c.queryOne("SELECT state, attempts, next_attempt_at FROM hook_outbox"))
            return (try r.string(0), try r.int(1), try r.int64(2))
        }
    }

    @Test func aDeliveryWhoseOutcomeCannotBeRecordedIsNotSentAgainAndIsRecordedLater() throws {
        let store = try DaemonDatabase()
        let clock = SimulationClock(Self.t0)
        let pager = try Self.pager(store.directory.path, status: 0)
        let log = CapturedLog()
        let delivery = HookDelivery(database: store.database, transports: ["ward": pager.transport], logger: log.logger, clock: clock)
        let eventId = try Self.queue(store.database)
        let outbox = try FailingOutbox(store.database)

        #expect(try delivery.deliverNext("ward"))
        #expect(pager.calls() == [eventId])
        #expect(log.all.contains { $0.contains("outcome could not be recorded") && $0.contains("event_id=\(eventId)")
                                   && $0.contains("outcome=delivered") })
        for t in [1.0, 5, 30, 300] {
            clock.set(Self.t0 + t)
            #expect(try !delivery.deliverNext("ward"), "nothing to send at +\(t) s")
        }
        #expect(pager.calls() == [eventId], "the pager ran once although its outcome is not in the outbox")
        #expect(try Self.row(store.database).state == "pending")
        try outbox.repair()
        clock.set(Self.t0 + 400)
        #expect(try !delivery.deliverNext("ward"))
        #expect(try Self.row(store.database).state == "delivered" && Self.row(store.database).attempts == 1)
        #expect(pager.calls() == [eventId])
    }

    @Test func aStoppingWorkerWritesTheOutcomesStillHeldInMemory() throws {
        let store = try DaemonDatabase()
        let clock = SimulationClock(Self.t0)
        let pager = try Self.pager(store.directory.path, status: 0)
        let delivery = HookDelivery(database: store.database, transports: ["ward": pager.transport], logger: Self.quiet, clock: clock)
        _ = try Self.queue(store.database)
        let outbox = try FailingOutbox(store.database)
        #expect(try delivery.deliverNext("ward"))
        try outbox.repair()
        let worker = HookWorker(hook: "ward", delivery: delivery, signal: StopSignal())
        worker.requestStop()
        worker.run()                                               // stops at once, within the write pause
        #expect(try Self.row(store.database).state == "delivered", "not sent again after a restart")
        #expect(pager.calls().count == 1)
    }

    @Test func aFailureWhoseOutcomeCannotBeRecordedIsRetriedOnTheScheduleNotEverySecond() throws {
        let store = try DaemonDatabase()
        let clock = SimulationClock(Self.t0)
        let pager = try Self.pager(store.directory.path, status: 75)
        let delivery = HookDelivery(database: store.database, transports: ["ward": pager.transport], logger: Self.quiet, clock: clock,
                                    random: SeededRandomSource(seed: 42))
        _ = try Self.queue(store.database)
        let outbox = try FailingOutbox(store.database)
        let t0 = epochMilliseconds(Self.t0)

        #expect(try delivery.deliverNext("ward"))
        for t in [1.0, 2, 3, 4, 5] {
            clock.set(Self.t0 + t)
            #expect(try !delivery.deliverNext("ward"), "the 5 s retry is not due at +\(t) s")
        }
        #expect(pager.calls().count == 1)
        // The seed's first draw makes the first wait 5.2415… s (see the test above).
        clock.set(Self.t0 + 5.3)
        #expect(try delivery.deliverNext("ward"), "due on the schedule although not recorded")
        #expect(pager.calls().count == 2)
        for t in [6.0, 60, 250] {
            clock.set(Self.t0 + t)
            #expect(try !delivery.deliverNext("ward"), "the 5 min retry is not due at +\(t) s")
        }
        #expect(pager.calls().count == 2)
        try outbox.repair()
        // Written again after pauses of 1, 2, 4, 8, 16 s between failed writes: by +266 s.
        clock.set(Self.t0 + 284)
        #expect(try !delivery.deliverNext("ward"))
        let row = try Self.row(store.database)
        // The second wait: 5 min × (0.9 + 0.2 × 0.1599…) = 279.594… s after the second attempt.
        #expect(row.state == "pending" && row.attempts == 2 && row.next == t0 + 5_300 + 279_594)
    }
}

/// A command hook whose file is briefly missing or not executable (being redeployed).
extension HookDeliveryTests {
    @Test func aCommandThatCannotStartIsRetriedOnTheScheduleAndDeliveredOnceItCan() throws {
        let store = try DaemonDatabase()
        let clock = SimulationClock(Self.t0)
        let pager = try Self.pager(store.directory.path, status: 0)
        let script = pager.transport.path
        chmod(script, 0o644)                                    // mid-redeploy
        let delivery = HookDelivery(database: store.database, transports: ["ward": pager.transport], logger: Self.quiet, clock: clock,
                                    random: SeededRandomSource(seed: 42))
        let eventId = try Self.queue(store.database)

        #expect(try delivery.deliverNext("ward"))
        var row = try Self.row(store.database)
        #expect(row.state == "pending" && row.attempts == 1 && row.next == epochMilliseconds(Self.t0) + 5_241, "\(row)")
        chmod(script, 0o755)                                    // the redeploy is done
        clock.set(Self.t0 + 5.241)
        #expect(try delivery.deliverNext("ward"))
        row = try Self.row(store.database)
        #expect(row.state == "delivered" && row.attempts == 2)
        #expect(pager.calls() == [eventId])
    }

    @Test func aCommandThatNeverBecomesExecutableIsADeadLetterOnlyAfter24Hours() throws {
        let store = try DaemonDatabase()
        let clock = SimulationClock(Self.t0)
        let missing = CommandTransport(path: store.directory.path + "/not-deployed-yet")
        let delivery = HookDelivery(database: store.database, transports: ["ward": missing], logger: Self.quiet, clock: clock)
        _ = try Self.queue(store.database)
        #expect(try delivery.deliverNext("ward"))
        #expect(try Self.row(store.database).state == "pending")
        clock.set(Self.t0 + 23 * 3600)
        #expect(try delivery.deliverNext("ward"))
        #expect(try Self.row(store.database).state == "pending", "still retried before 24 h")
        clock.set(Self.t0 + 24 * 3600)
        #expect(try delivery.deliverNext("ward"))
        #expect(try Self.row(store.database).state == "dead")
        let status = try store.database.read { try HookOutboxRepository.summary($0, hook: "ward") }
        #expect(status.deadLetters.first?.error?.hasPrefix("gave up after 24 h: command ") == true, "\(status.deadLetters)")
    }
}
