import Foundation
import HTJSON
import Synchronization
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Push reminders on the planned local times across the DST changes of Europe/Berlin and in
/// quiet hours (docs/product.md, W, "What is sent": "the adaptive intensity, quiet hours and DST
/// rules as today"). The daemon's clock cannot be moved, so, as the scheduler simulations do,
/// the application runs in-process on a settable clock: a silent patient with an iPhone, an
/// Android phone and a browser; every 5 simulated minutes the scheduler ticks and the push
/// worker sends what is due through one recording transport per platform (the wire formats
/// against the real peers are PushReminderTests'). Expected instants are written out in UTC.
@Suite struct PushScheduleTests {
    /// Records each push with the simulated instant it was sent at.
    final class Recorder: PushTransport {
        let clock: SimulationClock
        let sent = Mutex<[(at: Double, message: PushMessage)]>([])
        init(clock: SimulationClock) { self.clock = clock }
        func send(_ message: PushMessage, to address: PushAddress, now: Int64) -> PushSendResult {
            sent.withLock { $0.append((clock.now(), message)) }
            return .sent
        }
        var pushes: [(at: Double, message: PushMessage)] { sent.withLock { $0 } }
    }

    struct Course {
        let h: InProcessApplication
        let clock: SimulationClock
        let recorders: [PushPlatform: Recorder]
        let delivery: PushDelivery

        /// Surgery `surgery`, activated on POD 3 at 12:00, the morning check at 02:30.
        init(surgery: String, quietHours: (from: String, to: String)) throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ht-push-dst-\(UUID().uuidString)")
            let keys = try PushTestKeys(in: dir)
            let reminders = dir.appendingPathComponent("reminders.json")
            try Simulation.writeReminders(to: reminders) { o in
                o["checkTimes"] = ["morning": "02:30", "evening": "20:00"]
                o["quietHours"] = ["from": .string(quietHours.from), "to": .string(quietHours.to)]
            }
            let clock = SimulationClock(Berlin.at(Berlin.day(surgery, 3), "12:00"))
            self.clock = clock
            h = try InProcessApplication(clock: clock) { c in
                c.ruleFiles["reminders.json"] = reminders
                c.push.apns = .init(keyFile: keys.apnsKeyFile, keyId: "ABCDEFGHIJ", teamId: "KLMNOPQRST", topic: "org.test")
                c.push.fcm = .init(serviceAccountFile: keys.serviceAccountFile)
                var w = ServerConfiguration.Push.WebPush(vapidKeyFile: keys.vapidKeyFile, subject: "mailto:study@example.org")
                w.allowedHosts = ["push.test.invalid"]
                c.push.webPush = w
            }
            let token = try h.enrollAndActivate("DST-P", surgeryDate: surgery)
            for (id, body) in [("iphone-01", PushDeviceTests.apns(1)), ("android-01", ["platform": "fcm", "token": "fcm:dst-phone"]),
                               ("browser-01", try PushDeviceTests.subscription())] as [(String, JSONValue)] {
                let r = h.send(.put, "/v1/me/devices/\(id)", body: body, token: token)
                guard r.status == 201 else { throw TestError("device \(id): \(r.json)") }
            }
            recorders = Dictionary(uniqueKeysWithValues: PushPlatform.allCases.map { ($0, Recorder(clock: clock)) })
            let domain = h.app.domain
            delivery = PushDelivery(database: domain.database, transports: recorders, rules: domain.rules, logger: domain.logger,
                                    clock: clock, metrics: domain.pushMetrics)
        }

        /// Every 5 minutes (on the UTC grid) up to `end`: a scheduler tick, then the push worker.
        func run(to end: Double) throws {
            var t = (clock.now() / 300).rounded(.up) * 300
            while t <= end {
                clock.set(t)
                try h.app.domain.scheduler.tick(now: t)
                try delivery.deliverDue()
                t += 300
            }
        }

        /// Each platform's check pushes for `date`, as UTC instants.
        func checks(_ platform: PushPlatform, on date: String) -> [String] {
            recorders[platform]!.pushes.filter { $0.message.kind == "check" && $0.message.date == date }.map { Self.utc($0.at) }
        }

        static func utc(_ t: Double) -> String { String(iso8601UTC(milliseconds: Berlin.ms(t)).prefix(16)) + "Z" }

        /// Berlin wall-clock HH:MM of an instant.
        static func local(_ t: Double) -> String {
            var cal = Calendar(identifier: .gregorian)
            cal.timeZone = Berlin.zone
            let c = cal.dateComponents([.hour, .minute], from: Date(timeIntervalSince1970: t))
            return String(format: "%02d:%02d", c.hour!, c.minute!)
        }
    }

    /// Runs a course without quiet hours to `end`; every platform's check pushes of each date are `expected`.
    static func checkCourse(surgery: String, end: String, _ expected: [String: [String]]) throws {
        let course = try Course(surgery: surgery, quietHours: ("00:00", "00:00"))
        try course.run(to: Berlin.instant(end))
        for platform in PushPlatform.allCases {
            for (date, instants) in expected { #expect(course.checks(platform, on: date) == instants, "\(platform) \(date)") }
        }
    }

    /// Spring forward (2026-03-29, POD 5): the 02:30 check falls into the gap and goes to every
    /// platform once, at 03:30 CEST (01:30Z); the evening check at 20:00 CEST (18:00Z). The days
    /// around keep their offsets.
    @Test func springForwardEachPlatformGetsEachCheckOnceAtItsLocalTime() throws {
        try Self.checkCourse(surgery: "2026-03-24", end: "2026-03-30T12:00:00Z", [
            "2026-03-28": ["2026-03-28T01:30Z", "2026-03-28T19:00Z"], "2026-03-29": ["2026-03-29T01:30Z", "2026-03-29T18:00Z"],
            "2026-03-30": ["2026-03-30T00:30Z"]])
    }

    /// Fall back (2026-10-25, POD 5): 02:30 happens twice and is pushed once, at the first
    /// (00:30Z, CEST); the evening check at 20:00 CET (19:00Z).
    @Test func fallBackTheRepeatedHourPushesTheCheckOnce() throws {
        try Self.checkCourse(surgery: "2026-10-20", end: "2026-10-26T12:00:00Z", [
            "2026-10-24": ["2026-10-24T00:30Z", "2026-10-24T18:00Z"], "2026-10-25": ["2026-10-25T00:30Z", "2026-10-25T19:00Z"],
            "2026-10-26": ["2026-10-26T01:30Z"]])
    }

    /// Quiet hours 03:00–07:00: the spring-forward gap moves the 02:30 check of 2027-03-28 to
    /// 03:30 CEST, inside them, so no platform gets it that day (the day before gets it at
    /// 02:30); no push of any kind — task, missed, catch-up, nudge — arrives in quiet hours on any
    /// day; in the repeated hour of 2027-10-31 the check goes out once.
    @Test func nothingIsPushedInQuietHoursAcrossEitherChange() throws {
        let spring = try Course(surgery: "2027-03-23", quietHours: ("03:00", "07:00"))
        try spring.run(to: Berlin.instant("2027-03-29T12:00:00Z"))
        let autumn = try Course(surgery: "2027-10-26", quietHours: ("03:00", "07:00"))
        try autumn.run(to: Berlin.instant("2027-11-01T12:00:00Z"))
        for platform in PushPlatform.allCases {
            #expect(spring.checks(platform, on: "2027-03-27") == ["2027-03-27T01:30Z", "2027-03-27T19:00Z"], "\(platform)")
            #expect(spring.checks(platform, on: "2027-03-28") == ["2027-03-28T18:00Z"], "\(platform): the 03:30 check is quiet")
            #expect(autumn.checks(platform, on: "2027-10-31") == ["2027-10-31T00:30Z", "2027-10-31T19:00Z"], "\(platform)")
            for course in [spring, autumn] {
                let pushes = course.recorders[platform]!.pushes
                #expect(pushes.count > 10, "\(platform): a silent patient's days of reminders")
                let quiet = pushes.filter { ("03:00"..."06:59").contains(Course.local($0.at)) }
                #expect(quiet.isEmpty, "\(platform): \(quiet.map { "\(Course.utc($0.at)) \($0.message.kind)" })")
            }
        }
    }
}
