import Crypto
import Foundation
import HTJSON
import Synchronization
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Push deliveries in-process (docs/product.md, W, "Delivery", and settled W): the scheduler
/// stores one delivery per (reminder, device) whether or not a hook subscribes, the worker sends
/// it through the platform's transport (here one that records and answers as told) and records
/// sent, gone (the device disabled), failed with a retry after `Retry-After`, or expired at the
/// slot's end. No push holds health data.
@Suite struct PushDeliveryTests {
    /// A transport that records each message and answers from a script (then `sent`).
    final class ScriptedTransport: PushTransport {
        let state = Mutex<(sent: [PushMessage], answers: [PushSendResult])>(([], []))
        func answer(_ results: PushSendResult...) { state.withLock { $0.answers += results } }
        var messages: [PushMessage] { state.withLock { $0.sent } }
        func send(_ message: PushMessage, to address: PushAddress, now: Int64) -> PushSendResult {
            state.withLock { s in
                s.sent.append(message)
                return s.answers.isEmpty ? .sent : s.answers.removeFirst()
            }
        }
    }

    struct Scene {
        let h: InProcessApplication
        let clock: SimulationClock
        let token: String
        let transport = ScriptedTransport()
        let delivery: PushDelivery

        init(start: String = "07:30") throws {
            let keys = try PushTestKeys(in: FileManager.default.temporaryDirectory.appendingPathComponent("ht-push-keys-\(UUID().uuidString)"))
            let clock = SimulationClock(Berlin.at("2026-03-09", start))
            self.clock = clock
            h = try InProcessApplication(clock: clock) { c in
                var w = ServerConfiguration.Push.WebPush(vapidKeyFile: keys.vapidKeyFile, subject: "mailto:study@example.org")
                w.allowedHosts = ["push.test.invalid"]
                c.push.webPush = w
            }
            token = try h.enrollAndActivate("PU-1", surgeryDate: "2026-03-04")
            let domain = h.app.domain
            delivery = PushDelivery(database: domain.database, transports: [.webpush: transport], rules: domain.rules,
                                    logger: domain.logger, clock: clock, metrics: domain.pushMetrics, random: FixedRandom())
            let r = h.send(.put, "/v1/me/devices/browser-01", body: try PushDeviceTests.subscription(), token: token)
            guard r.status == 201 else { throw TestError("device: \(r.json)") }
        }

        func at(_ time: String, _ date: String = "2026-03-09") throws {
            clock.set(Berlin.at(date, time))
            try h.app.domain.scheduler.tick(now: clock.now())
        }

        func deliveries() throws -> [(reminder: String, state: String, attempts: Int, next: Int64?)] {
            try h.app.database.read { db in
                try db.query("SELECT reminder, state, attempts, next_attempt_at FROM push_deliveries ORDER BY id").map {
                    (try $0.string(0), try $0.string(1), Int(try $0.int64(2)), try $0.optionalInt64(3))
                }
            }
        }
    }

    struct FixedRandom: RandomSource {
        func nextUnit() -> Double { 0.5 }
    }

    @Test func aDueReminderIsStoredOncePerDeviceWithoutAnyHookAndSentWithoutHealthData() throws {
        let s = try Scene()
        try s.at("07:59")
        #expect(try s.deliveries().isEmpty, "nothing before the reminder's time")
        try s.at("08:00")
        try s.at("08:01")
        #expect(try s.deliveries().map(\.state) == ["pending"], "one delivery for one reminder and one device")
        try s.delivery.deliverDue()
        let message = try #require(s.transport.messages.first)
        #expect(message.kind == "check" && message.slot == "morning" && message.date == "2026-03-09")
        #expect(message.body == "Guten Morgen. Zeit für Ihre Morgenmessung.", "the device's language (de)")
        #expect(message.collapseId.count == 32 && !message.collapseId.contains("PU-1"))
        #expect(message.expiresAt == Int64(Berlin.at("2026-03-09", "11:00")), "a check reminder ends at its deadline")
        let payload = WebPushTransport.payload(message)
        #expect(payload == #"{"title":"HyponaTrack","body":"Guten Morgen. Zeit für Ihre Morgenmessung.","kind":"check","date":"2026-03-09","slot":"morning"}"#)
        for word in ["green", "yellow", "red", "level", "sodium", "weight", "reason"] { #expect(!payload.lowercased().contains(word)) }
        #expect(try s.deliveries().map(\.state) == ["sent"])
        try s.delivery.deliverDue()
        #expect(s.transport.messages.count == 1, "a sent delivery is never sent again")
        guard case .array(let devices) = s.h.send(.get, "/v1/me/devices", token: s.token).json, case .object(let d)? = devices.first else {
            Issue.record("no device"); return
        }
        #expect(d["lastSuccessAt"] != .null)
    }

    @Test func goneDisablesTheDeviceAndNothingMoreIsQueuedForIt() throws {
        let s = try Scene()
        s.transport.answer(.gone("Web Push HTTP 410"))
        try s.at("08:00")
        try s.delivery.deliverDue()
        #expect(try s.deliveries().map(\.state) == ["gone"])
        guard case .array(let devices) = s.h.send(.get, "/v1/me/devices", token: s.token).json, case .object(let d)? = devices.first else {
            Issue.record("no device"); return
        }
        #expect(d["state"] == "gone")
        try s.at("20:00")
        #expect(try s.deliveries().count == 1, "the evening reminder goes to no gone device")
        let audit = try s.h.app.database.read { db in try db.query("SELECT action FROM audit_log WHERE action = 'device.gone'").count }
        #expect(audit == 1)
    }

    @Test func aRetryAfterIsHonouredBeforeTheNextAttempt() throws {
        let s = try Scene()
        s.transport.answer(.retry("Web Push HTTP 429", afterSeconds: 120))
        try s.at("08:00")
        try s.delivery.deliverDue()
        let failed = try #require(try s.deliveries().first)
        #expect(failed.state == "failed" && failed.attempts == 1)
        #expect(failed.next == Berlin.ms(Berlin.at("2026-03-09", "08:02")))
        s.clock.set(Berlin.at("2026-03-09", "08:01"))
        try s.delivery.deliverDue()
        #expect(s.transport.messages.count == 1, "not before Retry-After")
        s.clock.set(Berlin.at("2026-03-09", "08:02"))
        try s.delivery.deliverDue()
        #expect(s.transport.messages.count == 2)
        #expect(try s.deliveries().map(\.state) == ["sent"])
        #expect(s.transport.messages[0].collapseId == s.transport.messages[1].collapseId, "a resend keeps its collapse id")
    }

    @Test func aDeliveryStillFailingWhenItsSlotEndsExpires() throws {
        let s = try Scene()
        s.transport.answer(.retry("Web Push HTTP 503", afterSeconds: 3 * 3600))
        try s.at("08:00")
        try s.delivery.deliverDue()
        s.clock.set(Berlin.at("2026-03-09", "10:59"))
        try s.delivery.deliverDue()
        #expect(try s.deliveries().map(\.state) == ["failed"])
        s.clock.set(Berlin.at("2026-03-09", "11:00"))
        try s.delivery.deliverDue()
        #expect(try s.deliveries().map(\.state) == ["expired"])
        #expect(s.transport.messages.count == 1)
        #expect(s.h.app.domain.pushMetrics.families.first!.text.contains(#"hyponatrack_push_deliveries_total{platform="webpush",outcome="expired"} 1"#))
    }

    @Test func anUnlistedRefusalIsFailedWithoutRetry() throws {
        let s = try Scene()
        s.transport.answer(.failed("Web Push HTTP 413"))
        try s.at("08:00")
        try s.delivery.deliverDue()
        #expect(try s.deliveries().map { "\($0.state) \($0.next == nil)" } == ["failed true"])
    }

    @Test func aWithdrawnPatientGetsNothing() throws {
        let s = try Scene()
        _ = try s.h.app.service.enrollment.withdraw(Withdraw(studyId: "PU-1", reason: "no longer wishes to take part", date: nil,
                                                             actor: "staff:nurse"))
        try s.at("08:00")
        try s.at("20:00")
        #expect(try s.deliveries().isEmpty)
    }

    @Test func staffSeeTheDevicesAndEachReminderWithItsDeliveries() throws {
        let s = try Scene()
        s.transport.answer(.retry("Web Push HTTP 503", afterSeconds: nil))
        try s.at("08:00")
        try s.delivery.deliverDue()
        let r = s.h.send(.get, "/v1/patients/PU-1/reminders?days=14")
        #expect(r.status == 200)
        guard case .object(let view) = r.json, case .array(let devices)? = view["devices"], case .array(let reminders)? = view["reminders"],
              case .object(let device)? = devices.first, case .object(let reminder)? = reminders.first,
              case .array(let deliveries)? = reminder["deliveries"], case .object(let delivery)? = deliveries.first else {
            Issue.record("shape: \(r.json)"); return
        }
        #expect(Set(device.keys) == ["deviceId", "platform", "state", "registeredAt", "lastSuccessAt"])
        #expect(device["deviceId"] == "browser-01" && device["state"] == "active" && device["lastSuccessAt"] == .null)
        #expect(Set(reminder.keys) == ["date", "slot", "kind", "dueAt", "deliveries"])
        #expect(reminder["date"] == "2026-03-09" && reminder["slot"] == "morning" && reminder["kind"] == "check")
        #expect(Set(delivery.keys) == ["deviceId", "state", "attempts", "lastAttemptAt"])
        #expect(delivery["state"] == "failed" && delivery["attempts"] == 1)
        #expect(s.h.send(.get, "/v1/patients/PU-1/reminders?days=0").status == 400)
        #expect(s.h.send(.get, "/v1/patients/NOPE/reminders").status == 404)
        #expect(s.h.send(.get, "/v1/patients/PU-1/reminders", token: s.token).status == 403)
    }

    func nudges(_ s: Scene) throws -> [String] {
        try s.h.app.database.read { db in
            try db.query("SELECT date FROM push_deliveries WHERE kind = 'nudge' ORDER BY id").map { try $0.string(0) }
        }
    }

    @Test func aSilentPatientIsNudgedOnceAfterSilenceNudgeHours() throws {
        let s = try Scene()
        try s.at("09:29", "2026-03-10")
        #expect(try nudges(s).isEmpty, "26 hours after activation (07:30) is 09:30 the next day")
        try s.at("09:30", "2026-03-10")
        try s.delivery.deliverDue()
        let nudge = try #require(s.transport.messages.first { $0.kind == "nudge" })
        #expect(nudge.body.hasPrefix("Wir haben länger nichts von Ihnen gehört"))
        #expect(nudge.expiresAt == Int64(Berlin.at("2026-03-10", "22:00")), "a nudge ends where quiet hours start")
        try s.at("12:00", "2026-03-10")
        try s.at("09:00", "2026-03-11")
        #expect(try nudges(s) == ["2026-03-10"], "one nudge per silent stretch")
        // A submission starts a new stretch: the next nudge 26 hours after it.
        s.clock.set(Berlin.at("2026-03-11", "10:00"))
        #expect(s.h.send(.put, "/v1/me/days/2026-03-11", body: ["weightMorningKg": 80.0], token: s.token).status == 200)
        try s.at("11:59", "2026-03-12")
        #expect(try nudges(s).count == 1)
        try s.at("12:00", "2026-03-12")
        #expect(try nudges(s) == ["2026-03-10", "2026-03-12"])
    }

    @Test func aNudgeDueInQuietHoursIsHeldUntilTheyEnd() throws {
        let s = try Scene(start: "21:00")
        try s.at("23:00", "2026-03-10")
        try s.at("06:59", "2026-03-11")
        #expect(try nudges(s).isEmpty, "quiet hours 22:00–07:00")
        try s.at("07:00", "2026-03-11")
        #expect(try nudges(s) == ["2026-03-11"])
    }
}
