import Crypto
import Foundation
import HTJSON
import HTTPClient
import Testing

/// Push reminders over real HTTP (docs/product.md, W, and settled W): the real daemon, with
/// reminders.json putting today's morning check and task reminders at the current Berlin minute
/// (the real clock cannot be moved), sends them to `scripts/webpush-receiver`, where py_vapid
/// verifies each VAPID header and http_ece decrypts each body; no hook subscribes to
/// `reminder.due`.
@Suite(.serialized) struct PushReminderTests {
    struct Rig {
        let receiver: WebPushReceiver
        let rig: HookRig
        let token: String

        init(answers: (WebPushReceiver) throws -> Void = { _ in }) throws {
            // Every other time late today (a time already past today would be due at once).
            if Hooks.berlinNow().minute >= 1430 { try waitUntil(timeout: 700) { Hooks.berlinNow().minute < 1430 } }
            let current = Hooks.hhmm(Hooks.berlinNow().minute)
            var config = try HookConfig()
            let vapidFile = config.directory.appendingPathComponent("vapid.pem").path
            try Self.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", vapidFile])
            chmod(vapidFile, 0o600)
            let vapid = try P256PrivateKey(pemFile: vapidFile, source: "test")
            receiver = try WebPushReceiver(directory: config.directory.appendingPathComponent("receiver"),
                                           vapidPublicKey: vapid.publicKeyBase64URL)
            try answers(receiver)
            config.reminders = PushReminderTests.morningNow(current)
            config.push = ["webPush": ["vapidKeyFile": .string(vapidFile), "subject": "mailto:study@example.org",
                                       "allowedHosts": ["127.0.0.1"]],
                           "caFile": .string(receiver.caFile)]
            rig = try HookRig(config)
            token = try rig.patient("PUSH-1")
            let r = try rig.daemon.request(.put, "/v1/me/devices/browser-01", token: token,
                                           body: ["platform": "webpush", "subscription": receiver.subscription, "language": "en"])
            guard r.status == 201 else { throw TestFailure("device: \(r.status) \(r.text)") }
        }

        static func openssl(_ arguments: [String]) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            p.arguments = arguments
            try p.run()
            p.waitUntilExit()
            guard p.terminationStatus == 0 else { throw TestFailure("openssl failed") }
        }

        func accepted() throws -> [WebPushReceiver.Message] { try receiver.messages().filter { $0.status == 201 && $0.error == nil } }
    }

    /// reminders.json with today's morning check and urine_sg task at `current` (so due at once)
    /// and every other time late today; quiet hours off, so the test runs at any hour.
    static func morningNow(_ current: String) -> (inout JSONObject) -> Void {
        { o in
                o["checkTimes"] = ["morning": .string(current), "evening": "23:57"]
                o["deadlines"] = ["morning": "23:56", "evening": "23:59"]
                o["taskTimes"] = ["urine_sg": .string(current), "reaction_test": "23:55", "tapping_test": "23:55",
                                  "desmopressin": "23:55", "fluid_log": "23:55"]
                o["catchUp"] = "23:54"
                o["quietHours"] = ["from": "00:00", "to": "00:00"]
        }
    }

    @Test func remindersReachTheWebPushServiceSignedEncryptedAndWithoutHealthData() throws {
        let t = try Rig()
        // POD 6, critical window: elevated, so the morning check and the urine_sg task reminder.
        try t.rig.waitUntil(timeout: 30, "both reminders are delivered") { try t.accepted().count >= 2 }
        try t.rig.holds(for: 1.5, "each reminder is sent once") { try t.receiver.messages().count == 2 }
        let messages = try t.accepted()
        #expect(Set(messages.compactMap { $0.payload("kind") }) == ["check", "task"])
        #expect(Set(messages.compactMap(\.topic)).count == 2, "one collapse id per reminder")
        for m in messages {
            #expect(m.error == nil)
            #expect(m.payload("title") == "HyponaTrack")
            #expect(m.payload("date") == Study.date(0) && m.payload("slot") == "morning")
            #expect(Set(m.payload?.keys ?? []) == ["title", "body", "kind", "date", "slot"])
            #expect(m.headers["urgency"] == "high")
            #expect(m.topic?.count == 32 && m.topic?.contains("PUSH") == false)
            if case .string(let ttl)? = m.headers["ttl"] { #expect((Int(ttl) ?? 0) > 60, "until the morning deadline") } else { Issue.record("no TTL") }
        }
        let view = try t.rig.daemon.request(.get, "/v1/patients/PUSH-1/reminders", token: t.rig.nurse)
        guard case .array(let reminders)? = view["reminders"] else { Issue.record("view: \(view.text)"); return }
        #expect(reminders.count == 2)
        let metrics = try t.rig.daemon.request(.get, "/metrics").text
        #expect(metrics.contains(#"hyponatrack_push_deliveries_total{platform="webpush",outcome="sent"} 2"#))
        #expect(metrics.contains("hyponatrack_push_pending 0"))
    }

    @Test func aTooManyRequestsIsRetriedAfterItsRetryAfterWithTheSameTopic() throws {
        let t = try Rig { try $0.answer(429, retryAfter: "3") }
        try t.rig.waitUntil(timeout: 40, "both reminders are delivered after the 429") { try t.accepted().count >= 2 }
        let all = try t.receiver.messages()
        let refused = try #require(all.first { $0.status == 429 })
        let retried = try #require(all.first { $0.status == 201 && $0.topic == refused.topic })
        #expect(retried.at - refused.at >= 2.9, "not before Retry-After")
        #expect(all.count == 3)
    }

    @Test func aGoneSubscriptionDisablesTheDevice() throws {
        let t = try Rig { try $0.answer(410, count: 5) }
        try t.rig.waitUntil(timeout: 30, "the device is gone") {
            let r = try t.rig.daemon.request(.get, "/v1/me/devices", token: t.token)
            guard case .array(let devices) = r.json, case .object(let d)? = devices.first else { return false }
            return d["state"] == "gone"
        }
        try t.rig.holds(for: 1.5, "nothing more is sent to a gone device") { try t.receiver.messages().count == 1 }
    }

    /// A delivery waiting for its retry when the daemon is killed is sent after the restart,
    /// once; the ones already sent are not sent again.
    @Test func aKill9NeitherLosesNorRepeatsADelivery() throws {
        // Retry-After long enough that the retry cannot come before the kill on a slow machine.
        let t = try Rig { try $0.answer(503, retryAfter: "8") }
        try t.rig.waitUntil(timeout: 30, "one reminder sent, the other refused") {
            let all = try t.receiver.messages()
            return all.count == 2 && all.contains { $0.status == 503 }
        }
        // Outcomes are written a few at a time: kill once both are recorded (a crash between an
        // answer and its record may send that one again, with the same Topic — allowed, not this test's case).
        try t.rig.waitUntil(timeout: 10, "both outcomes recorded") {
            let view = try t.rig.daemon.request(.get, "/v1/patients/PUSH-1/reminders", token: t.rig.nurse)
            guard case .array(let reminders)? = view["reminders"] else { return false }
            let states = reminders.compactMap { r -> String? in
                guard case .object(let o) = r, case .array(let ds)? = o["deliveries"], case .object(let d)? = ds.first,
                      case .string(let state)? = d["state"] else { return nil }
                return state
            }
            return states.sorted() == ["failed", "sent"]
        }
        t.rig.daemon.kill9()
        try t.rig.daemon.start()
        try t.rig.waitUntil(timeout: 30, "the refused one is sent after the restart") { try t.accepted().count == 2 }
        try t.rig.holds(for: 2, "nothing is sent twice") { try t.receiver.messages().count == 3 }
        let all = try t.receiver.messages()
        let refused = try #require(all.first { $0.status == 503 })
        #expect(all.filter { $0.topic == refused.topic }.count == 2, "the retry carries the same Topic")
    }

    /// FCM: the service account's assertion verified by PyJWT, the access token reused, a
    /// revoked token refreshed once, UNREGISTERED disabling the device.
    @Test func remindersReachFCMWithAnOAuthTokenAndUnregisteredDisablesTheDevice() throws {
        if Hooks.berlinNow().minute >= 1430 { try waitUntil(timeout: 700) { Hooks.berlinNow().minute < 1430 } }
        let current = Hooks.hhmm(Hooks.berlinNow().minute)
        var config = try HookConfig()
        let fcm = try FCMEmulator(directory: config.directory.appendingPathComponent("fcm"))
        config.reminders = PushReminderTests.morningNow(current)
        config.push = ["fcm": ["serviceAccountFile": .string(fcm.accountFile), "url": .string(fcm.url)], "caFile": .string(fcm.caFile)]
        let rig = try HookRig(config)
        let token = try rig.patient("PUSH-FCM")
        let r = try rig.daemon.request(.put, "/v1/me/devices/android-01", token: token,
                                       body: ["platform": "fcm", "token": "fcm-device-token:APA91bExample"])
        #expect(r.status == 201)
        try rig.waitUntil(timeout: 30, "both reminders are delivered") { try fcm.messages().filter { $0.status == 200 }.count >= 2 }
        let sent = try fcm.messages().filter { $0.status == 200 }
        for m in sent {
            #expect(m.error == nil)
            guard case .object(let data)? = m.message?["data"], case .object(let n)? = m.message?["notification"],
                  case .object(let android)? = m.message?["android"] else { Issue.record("message: \(String(describing: m.message))"); continue }
            #expect(n["title"] == "HyponaTrack")
            #expect(Set(data.keys) == ["kind", "date", "slot"] && data["date"] == .string(Study.date(0)))
            #expect(android["priority"] == "high")
            #expect(m.message?["token"] == "fcm-device-token:APA91bExample")
        }
        #expect(try fcm.get("/_tokens").count == 1, "the access token is reused")
        // The service stops taking the token (401): one refresh, then sent.
        try fcm.control("/_revoke")
        let second = try rig.patient("PUSH-FCM-3")
        #expect(try rig.daemon.request(.put, "/v1/me/devices/android-03", token: second,
                                       body: ["platform": "fcm", "token": "fcm-device-token:third"]).status == 201)
        try rig.waitUntil(timeout: 30, "the second patient's reminders are delivered") {
            try fcm.messages().filter { $0.status == 200 }.count >= 4
        }
        let tokens = try fcm.get("/_tokens")
        #expect(tokens.count == 2, "one refresh after the 401")
        #expect(tokens.allSatisfy { $0["ok"] == .bool(true) }, "PyJWT verified every assertion: \(tokens)")
        #expect(try fcm.messages().filter { $0.status == 401 }.count == 1)
        // Another patient's phone the service no longer knows (UNREGISTERED): gone, nothing more sent to it.
        let other = try rig.patient("PUSH-FCM-2")
        #expect(try rig.daemon.request(.put, "/v1/me/devices/android-02", token: other,
                                       body: ["platform": "fcm", "token": "unregistered:old-phone"]).status == 201)
        try rig.waitUntil(timeout: 30, "the device is gone") {
            let r = try rig.daemon.request(.get, "/v1/me/devices", token: other)
            guard case .array(let devices) = r.json, case .object(let d)? = devices.first else { return false }
            return d["state"] == "gone"
        }
        try rig.holds(for: 1.5, "nothing more goes to it") { try fcm.messages().filter { $0.status == 404 }.count == 1 }
    }

    /// FCM and Web Push send many at once (one request per device at a time, several devices in
    /// parallel), as APNs does: with each service holding every answer 0.5 s, one patient's two
    /// Android phones and three browsers get their reminders in overlapping requests — each peer
    /// counts the sends it was handling when one arrived (one after another it would be 1).
    @Test func fcmAndWebPushSendToSeveralDevicesAtOnce() throws {
        if Hooks.berlinNow().minute >= 1430 { try waitUntil(timeout: 700) { Hooks.berlinNow().minute < 1430 } }
        var config = try HookConfig()
        let fcm = try FCMEmulator(directory: config.directory.appendingPathComponent("fcm"))
        let vapidFile = config.directory.appendingPathComponent("vapid.pem").path
        try Rig.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", vapidFile])
        chmod(vapidFile, 0o600)
        let receiver = try WebPushReceiver(directory: config.directory.appendingPathComponent("receiver"),
                                           vapidPublicKey: try P256PrivateKey(pemFile: vapidFile, source: "test").publicKeyBase64URL)
        try fcm.control("/_answer", ["status": 200, "hold": 0.5, "count": 4])
        try receiver.answer(201, count: 6, hold: 0.5)
        config.reminders = Self.morningNow(Hooks.hhmm(Hooks.berlinNow().minute))
        // One CA file naming both peers' throwaway CAs.
        let bundle = config.directory.appendingPathComponent("push-ca.pem")
        try (String(contentsOfFile: fcm.caFile, encoding: .utf8) + String(contentsOfFile: receiver.caFile, encoding: .utf8))
            .write(to: bundle, atomically: true, encoding: .utf8)
        config.push = ["fcm": ["serviceAccountFile": .string(fcm.accountFile), "url": .string(fcm.url)],
                       "webPush": ["vapidKeyFile": .string(vapidFile), "subject": "mailto:study@example.org", "allowedHosts": ["127.0.0.1"]],
                       "caFile": .string(bundle.path)]
        let rig = try HookRig(config)
        let token = try rig.patient("PUSH-MANY")
        for n in 1...2 {
            let r = try rig.daemon.request(.put, "/v1/me/devices/android-0\(n)", token: token,
                                           body: ["platform": "fcm", "token": .string("fcm-device-token:phone\(n)")])
            #expect(r.status == 201, "\(r.text)")
        }
        guard case .object(var subscription) = receiver.subscription, case .string(let endpoint)? = subscription["endpoint"] else {
            throw TestFailure("subscription: \(receiver.subscription)")
        }
        for n in 1...3 {
            subscription["endpoint"] = .string("\(endpoint)-\(n)")
            let r = try rig.daemon.request(.put, "/v1/me/devices/browser-0\(n)", token: token,
                                           body: ["platform": "webpush", "subscription": .object(subscription)])
            #expect(r.status == 201, "\(r.text)")
        }
        try rig.waitUntil(timeout: 40, "every device's two reminders are delivered") {
            try fcm.messages().filter { $0.status == 200 }.count >= 4 && receiver.messages().filter { $0.status == 201 }.count >= 6
        }
        try rig.holds(for: 1.5, "each once") { try fcm.messages().count == 4 && receiver.messages().count == 6 }
        let android = try fcm.messages(), browsers = try receiver.messages()
        #expect(android.allSatisfy { $0.error == nil } && browsers.allSatisfy { $0.error == nil })
        #expect((android.map(\.concurrent).max() ?? 0) >= 2, "FCM: \(android.map(\.concurrent))")
        #expect((browsers.map(\.concurrent).max() ?? 0) >= 2, "Web Push: \(browsers.map(\.concurrent))")
        let phones = Dictionary(grouping: android, by: { $0.message?["token"].map { "\($0)" } ?? "" })
        let tabs = Dictionary(grouping: browsers, by: \.path)
        #expect(phones.count == 2 && phones.values.allSatisfy { $0.count == 2 }, "two reminders for each phone")
        #expect(tabs.count == 3 && tabs.values.allSatisfy { $0.count == 2 }, "two reminders for each browser")
        #expect(Dictionary(grouping: browsers, by: { $0.topic ?? "" }).values.allSatisfy { $0.count == 3 },
                "each reminder once to each browser (one Topic per reminder)")
        // What overlapped were different devices: a device's second push came only after its
        // first was answered (each answer held 0.5 s).
        for arrivals in phones.values.map({ $0.map(\.at) }) + tabs.values.map({ $0.map(\.at) }) {
            let sorted = arrivals.sorted()
            #expect(zip(sorted, sorted.dropFirst()).allSatisfy { $1 - $0 >= 0.45 }, "one push in flight per device: \(sorted)")
        }
    }

    /// APNs over HTTP/2: the provider token verified by PyJWT (ES256, kid, iss, iat), every
    /// header, the payload; 429 with Retry-After retried; 410 Unregistered disabling the device.
    /// A daemon whose reminders are due now, pushing to an APNs emulator that first answers
    /// `answer` (the emulator's `/_answer` command).
    static func apnsRig(answer: JSONValue) throws -> (HookRig, APNsEmulator) {
        if Hooks.berlinNow().minute >= 1430 { try waitUntil(timeout: 700) { Hooks.berlinNow().minute < 1430 } }
        var config = try HookConfig()
        config.reminders = Self.morningNow(Hooks.hhmm(Hooks.berlinNow().minute))
        let keyFile = config.directory.appendingPathComponent("apns.p8").path
        try Rig.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyFile])
        chmod(keyFile, 0o600)
        let apns = try APNsEmulator(directory: config.directory.appendingPathComponent("apns"), keyFile: keyFile,
                                    keyId: "ABCDEFGHIJ", teamId: "KLMNOPQRST", topic: "org.example.hyponatrack")
        try apns.answer(answer)
        config.push = ["apns": ["keyFile": .string(keyFile), "keyId": "ABCDEFGHIJ", "teamId": "KLMNOPQRST",
                                "topic": "org.example.hyponatrack", "url": .string("https://127.0.0.1:\(apns.port)")],
                       "caFile": .string(apns.caFile)]
        return (try HookRig(config), apns)
    }

    @Test func remindersReachAPNsOverHTTP2AndUnregisteredDisablesTheDevice() throws {
        let (rig, apns) = try Self.apnsRig(answer: ["status": 429, "reason": "TooManyRequests", "retryAfter": "2"])
        let token = try rig.patient("PUSH-APNS")
        let deviceToken = String(repeating: "a1", count: 32)
        #expect(try rig.daemon.request(.put, "/v1/me/devices/iphone-01", token: token,
                                       body: ["platform": "apns", "token": .string(deviceToken), "language": "de"]).status == 201)
        try rig.waitUntil(timeout: 30, "both reminders are delivered, one after a 429") {
            try apns.messages().filter { $0.status == 200 }.count >= 2
        }
        let all = try apns.messages()
        #expect(all.count == 3 && all.filter { $0.status == 429 }.count == 1, "\(all.map(\.status))")
        for m in all {
            #expect(m.error == nil, "\(m.error ?? "")")
            #expect(m.token == deviceToken)
            #expect(m.headers["apns-push-type"] == "alert" && m.headers["apns-priority"] == "10")
            #expect(!m.body.contains("PUSH-APNS"))
        }
        #expect(Set(all.compactMap { if case .string(let c)? = $0.headers["apns-collapse-id"] { c } else { nil } }).count == 2,
                "the retry carries its reminder's collapse id")
        #expect(all.contains { $0.body.contains("Guten Morgen") }, "the device's language")
        // A phone Apple no longer knows: 410 Unregistered, the device is gone.
        let other = try rig.patient("PUSH-APNS-2")
        #expect(try rig.daemon.request(.put, "/v1/me/devices/iphone-02", token: other,
                                       body: ["platform": "apns", "token": .string("dead" + String(repeating: "0", count: 60))]).status == 201)
        try rig.waitUntil(timeout: 30, "the device is gone") {
            let r = try rig.daemon.request(.get, "/v1/me/devices", token: other)
            guard case .array(let devices) = r.json, case .object(let d)? = devices.first else { return false }
            return d["state"] == "gone"
        }
        let metrics = try rig.daemon.request(.get, "/metrics").text
        #expect(metrics.contains(#"hyponatrack_push_deliveries_total{platform="apns",outcome="sent"} 2"#))
        #expect(metrics.contains(#"hyponatrack_push_deliveries_total{platform="apns",outcome="gone"} 1"#))
    }

    /// Apple refuses a provider token (403 `ExpiredProviderToken`): the token is made again
    /// once and the refused push goes again with it, under its collapse id; nothing is lost.
    @Test func aRefusedProviderTokenIsMadeAgainAndThePushGoesOnceMore() throws {
        let (rig, apns) = try Self.apnsRig(answer: ["status": 403, "reason": "ExpiredProviderToken", "count": 1])
        let token = try rig.patient("PUSH-APNS-403")
        #expect(try rig.daemon.request(.put, "/v1/me/devices/iphone-01", token: token,
                                       body: ["platform": "apns", "token": .string(String(repeating: "b2", count: 32))]).status == 201)
        try rig.waitUntil(timeout: 30, "both reminders are delivered, one after a 403") {
            try apns.messages().filter { $0.status == 200 }.count >= 2
        }
        try rig.holds(for: 1, "nothing more is sent") { try apns.messages().count == 3 }
        let all = try apns.messages()
        #expect(all.map(\.status).sorted() == [200, 200, 403], "\(all.map(\.status))")
        let refused = try #require(all.first { $0.status == 403 })
        let again = all.filter { $0.status == 200 && $0.headers["apns-collapse-id"] == refused.headers["apns-collapse-id"] }
        #expect(again.count == 1, "the refused push went once more, under its collapse id")
        #expect(again.first?.headers["authorization"] != refused.headers["authorization"], "with a token made again")
        let metrics = try rig.daemon.request(.get, "/metrics").text
        #expect(metrics.contains(#"hyponatrack_push_deliveries_total{platform="apns",outcome="sent"} 2"#))
    }
}
