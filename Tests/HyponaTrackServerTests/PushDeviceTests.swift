import Crypto
import Foundation
import HTJSON
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// A patient's push devices in-process (docs/product.md, W, "Push reminders", and settled W):
/// registration, replacement, the cap of five, the refusals naming their field, an address that
/// moves to the patient who registers it, and the audit rows (never a token).
@Suite struct PushDeviceTests {
    struct Scene {
        let h: InProcessApplication
        let token: String

        init(platforms: Set<PushPlatform> = [.apns, .fcm, .webpush], allowedHosts: [String] = ["push.test.invalid", "*.example-push.org"],
             resolver: [String: [IPAddress]] = [:]) throws {
            let keys = try PushTestKeys(in: FileManager.default.temporaryDirectory.appendingPathComponent("ht-push-keys-\(UUID().uuidString)"))
            h = try InProcessApplication(clock: SimulationClock(Berlin.at("2026-03-09", "09:00"))) { c in
                if platforms.contains(.apns) { c.push.apns = .init(keyFile: keys.apnsKeyFile, keyId: "ABCDEFGHIJ", teamId: "KLMNOPQRST", topic: "org.test") }
                if platforms.contains(.fcm) { c.push.fcm = .init(serviceAccountFile: keys.serviceAccountFile) }
                if platforms.contains(.webpush) {
                    var w = ServerConfiguration.Push.WebPush(vapidKeyFile: keys.vapidKeyFile, subject: "mailto:study@example.org")
                    w.allowedHosts = allowedHosts
                    c.push.webPush = w
                }
            }
            token = try h.enrollAndActivate("PD-1", surgeryDate: "2026-03-04")
        }

        func put(_ deviceId: String, _ body: JSONValue, token: String? = nil) -> (status: Int, json: JSONValue) {
            h.send(.put, "/v1/me/devices/\(deviceId)", body: body, token: token ?? self.token)
        }

        func auditRows() throws -> [(action: String, details: String)] {
            try h.app.database.read { db in
                try db.query("SELECT action, details FROM audit_log WHERE action LIKE 'device.%' ORDER BY seq").map { (try $0.string(0), try $0.string(1)) }
            }
        }
    }

    static func apns(_ n: Int) -> JSONValue { ["platform": "apns", "token": .string(String(repeating: String(n % 10), count: 64))] }

    static func subscription(endpoint: String = "https://push.test.invalid/sub/1") throws -> JSONValue {
        let key = try P256PrivateKey.generate()
        return ["platform": "webpush", "language": "de",
                "subscription": ["endpoint": .string(endpoint),
                                 "keys": ["p256dh": .string(key.publicKeyBase64URL), "auth": .string(Base64.url.encode(Array(repeating: 7, count: 16)))]]]
    }

    static func field(_ json: JSONValue) -> String? {
        guard case .object(let o) = json, case .object(let e)? = o["error"], case .string(let f)? = e["field"] else { return nil }
        return f
    }

    static func code(_ json: JSONValue) -> String? {
        guard case .object(let o) = json, case .object(let e)? = o["error"], case .string(let c)? = e["code"] else { return nil }
        return c
    }

    @Test func aNewDeviceIs201AndTheSameDeviceIdAgainIs200() throws {
        let s = try Scene()
        #expect(s.put("phone-0001", Self.apns(1)).status == 201)
        let replaced = s.put("phone-0001", Self.apns(2))
        #expect(replaced.status == 200)
        guard case .object(let device) = replaced.json else { Issue.record("no device"); return }
        #expect(device["platform"] == "apns")
        #expect(device["state"] == "active")
        #expect(device["token"] == nil, "a device's token is never answered")
        guard case .array(let list) = s.h.send(.get, "/v1/me/devices", token: s.token).json else { Issue.record("no list"); return }
        #expect(list.count == 1)
    }

    @Test func aSixthDeviceIsRefusedNamingDeviceIdButReplacingAtTheCapIsAllowed() throws {
        let s = try Scene()
        for n in 1...5 { #expect(s.put("phone-000\(n)", Self.apns(n)).status == 201) }
        let sixth = s.put("phone-0006", Self.apns(6))
        #expect(sixth.status == 409)
        #expect(Self.code(sixth.json) == "limit_reached")
        #expect(Self.field(sixth.json) == "deviceId")
        #expect(s.put("phone-0003", ["platform": "fcm", "token": "fcm-token:abcdefgh"]).status == 200)
        guard case .array(let list) = s.h.send(.get, "/v1/me/devices", token: s.token).json else { Issue.record("no list"); return }
        #expect(list.count == 5)
    }

    @Test func anUnconfiguredPlatformIsAConflictNamingPlatform() throws {
        let s = try Scene(platforms: [.webpush])
        let refused = s.put("phone-0001", Self.apns(1))
        #expect(refused.status == 409)
        #expect(Self.code(refused.json) == "conflict")
        #expect(Self.field(refused.json) == "platform")
        #expect(try s.auditRows().isEmpty)
    }

    @Test func badRegistrationsAre400NamingTheFieldAndStoreNothing() throws {
        let s = try Scene()
        let key = try P256PrivateKey.generate().publicKeyBase64URL
        let cases: [(String, JSONValue, String)] = [
            ("short", Self.apns(1), "deviceId"),
            ("phone 0001", Self.apns(1), "deviceId"),
            ("phone-0001", ["platform": "sms", "token": "abcdefgh"], "platform"),
            ("phone-0001", ["platform": "apns"], "token"),
            ("phone-0001", try Self.subscription(endpoint: "http://push.test.invalid/sub/1"), "subscription.endpoint"),
            ("phone-0001", try Self.subscription(endpoint: "https://elsewhere.test.invalid/sub/1"), "subscription.endpoint"),
            ("phone-0001", ["platform": "webpush", "subscription": ["endpoint": "https://push.test.invalid/1",
                                                                     "keys": ["p256dh": .string(String(key.dropLast(4))), "auth": "AAAAAAAAAAAAAAAAAAAAAA"]]],
             "subscription.keys.p256dh"),
            ("phone-0001", ["platform": "webpush", "subscription": ["endpoint": "https://push.test.invalid/1",
                                                                     "keys": ["p256dh": .string(key), "auth": "AAAA"]]],
             "subscription.keys.auth"),
            ("phone-0001", ["platform": "apns", "token": "abcdefgh", "language": "fr"], "language"),
        ]
        for (deviceId, body, field) in cases {
            let r = s.put(deviceId, body)
            #expect(r.status == 400, "\(deviceId) \(body)")
            #expect(Self.field(r.json) == field, "\(r.json)")
        }
        #expect(s.h.send(.get, "/v1/me/devices", token: s.token).json == .array([]))
        #expect(try s.auditRows().isEmpty)
    }

    @Test func aWebPushEndpointMustResolveToAPublicAddressUnlessItsHostIsNamed() throws {
        let policy = WebPushEndpointPolicy(allowedHosts: ["*.example-push.org", "receiver.local"], resolver: FixedResolver([
            "public.example-push.org": [.v4([93, 184, 216, 34])],
            "inside.example-push.org": [.v4([93, 184, 216, 34]), .v4([10, 1, 2, 3])],
            "metadata.example-push.org": [.v4([169, 254, 169, 254])],
            "mapped.example-push.org": [.v6([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 127, 0, 0, 1])],
            "receiver.local": [.v4([127, 0, 0, 1])],
        ]))
        #expect(policy.problem("https://public.example-push.org/x") == nil)
        #expect(policy.problem("https://inside.example-push.org/x") != nil)
        #expect(policy.problem("https://metadata.example-push.org/x") != nil)
        #expect(policy.problem("https://mapped.example-push.org/x") != nil)
        #expect(policy.problem("https://unresolved.example-push.org/x") != nil)
        #expect(policy.problem("https://receiver.local:8443/x") == nil, "a host named exactly may be private")
        #expect(policy.problem("https://127.0.0.1/x") != nil, "an address not listed is refused")
        #expect(policy.problem("https://user@public.example-push.org/x") != nil)
        #expect(policy.problem("http://public.example-push.org/x") != nil)
    }

    @Test func aTokenRegisteredByAnotherPatientMovesToThem() throws {
        let s = try Scene()
        let other = try s.h.enrollAndActivate("PD-2", surgeryDate: "2026-03-04")
        #expect(s.put("phone-0001", Self.apns(1)).status == 201)
        #expect(s.put("loan-phone", Self.apns(1), token: other).status == 201)
        #expect(s.h.send(.get, "/v1/me/devices", token: s.token).json == .array([]))
        guard case .array(let theirs) = s.h.send(.get, "/v1/me/devices", token: other).json else { Issue.record("no list"); return }
        #expect(theirs.count == 1)
        let rows = try s.auditRows()
        #expect(rows.map(\.action) == ["device.register", "device.remove", "device.register"])
        #expect(rows.allSatisfy { !$0.details.contains(String(repeating: "1", count: 64)) }, "the audit trail never holds a token")
    }

    @Test func aWebPushSubscriptionIsRegisteredWithItsLanguageAndRemoved() throws {
        let s = try Scene()
        let r = s.put("browser-01", try Self.subscription())
        #expect(r.status == 201)
        guard case .object(let device) = r.json else { Issue.record("no device"); return }
        #expect(device["platform"] == "webpush")
        #expect(device["language"] == "de")
        #expect(s.h.send(.delete, "/v1/me/devices/browser-01", token: s.token).status == 204)
        #expect(s.h.send(.delete, "/v1/me/devices/browser-01", token: s.token).status == 404)
        #expect(try s.auditRows().map(\.action) == ["device.register", "device.remove"])
    }

    @Test func staffTokensCannotRegisterDevices() throws {
        let s = try Scene()
        #expect(s.h.send(.put, "/v1/me/devices/phone-0001", body: Self.apns(1)).status == 403)
    }
}

/// Host names answered from a table (no DNS in tests).
struct FixedResolver: HostResolver {
    let table: [String: [IPAddress]]
    init(_ table: [String: [IPAddress]]) { self.table = table }
    func addresses(of host: String) -> [IPAddress] { table[host] ?? [] }
}
