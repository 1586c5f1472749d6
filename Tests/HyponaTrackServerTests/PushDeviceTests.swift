import Crypto
import Foundation
import HTJSON
import HTTPClient
import HTTPServer
import HyponaTrackCore
import HyponaTrackKit
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

    /// The sender connects to the addresses the policy checked (CURLOPT_RESOLVE), so a name that
    /// answers a public address to the check and a private one to libcurl's own lookup (DNS
    /// rebinding) cannot lead the request inside; curl honouring the pin is HTTPClientTests'.
    @Test func theSenderPinsTheConnectionToTheAddressesThePolicyChecked() throws {
        let policy = WebPushEndpointPolicy(allowedHosts: ["*.example-push.org", "receiver.local"], resolver: FixedResolver([
            "public.example-push.org": [.v4([93, 184, 216, 34]), .v6([0x26, 0x06, 0x28, 0x00, 0x02, 0x20, 0, 1, 0x2, 0x48, 0x18, 0x93,
                                                                      0x25, 0xc8, 0x19, 0x46])],
            "inside.example-push.org": [.v4([10, 1, 2, 3])],
        ]))
        #expect(policy.destination("https://public.example-push.org:8443/p/x") == .success(ResolvedHost(
            host: "public.example-push.org", port: 8443, addresses: ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"])))
        #expect(policy.destination("https://public.example-push.org/p/x") == .success(ResolvedHost(
            host: "public.example-push.org", port: 443, addresses: ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"])))
        #expect(policy.destination("https://receiver.local:9/x") == .success(nil), "a named host is connected to as DNS says")
        #expect(policy.destination("https://public.example-push.org:99999/x") == .failure(.init(reason: "the endpoint has no host")))

        let transport = WebPushTransport(vapid: try VAPID(key: try P256PrivateKey.generate(), subject: "mailto:study@example.org"),
                                         policy: policy, client: MultiplexedHTTPClient())
        let (p256dh, auth) = (try P256PrivateKey.generate().publicKeyBase64URL, Base64.url.encode(Array(repeating: 7, count: 16)))
        let reminder = PushReminder(kind: "check", date: LocalDate("2026-03-09")!, slot: .morning, key: "check@08:00",
                                    dueAt: 1_773_039_600_000, expiresAt: 1_773_046_800_000)
        let texts = try RulesLoader.load(directory: Simulation.repo.appendingPathComponent("config")).instructions
        let message = PushMessage(reminder, collapseId: "c", language: .en, texts: texts)
        let request = try transport.request(message, endpoint: "https://public.example-push.org/p/x", p256dh: p256dh, auth: auth,
                                            now: 1_773_039_600).get()
        #expect(request.resolvedHost == ResolvedHost(host: "public.example-push.org", port: 443,
                                                     addresses: ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]))
        #expect(throws: WebPushEndpointPolicy.Refusal.self) {
            try transport.request(message, endpoint: "https://inside.example-push.org/p/x", p256dh: p256dh, auth: auth,
                                  now: 1_773_039_600).get()
        }
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

    /// Within one sending call the policy looks each approved push service up once (the lookups
    /// run inside the transfer loop), whatever the subscriptions' paths; a refusal is asked
    /// again; another port or scheme is another service. A host that does not resolve is a
    /// passing refusal (its push is retried), a private one is not.
    @Test func aCallLooksEachApprovedPushServiceUpOnce() {
        let resolver = CountingResolver(FixedResolver(["public.example-push.org": [.v4([93, 184, 216, 34])],
                                                       "inside.example-push.org": [.v4([10, 1, 2, 3])]]))
        let checked = CheckedDestinations(policy: WebPushEndpointPolicy(allowedHosts: ["*.example-push.org"], resolver: resolver))
        let pin = ResolvedHost(host: "public.example-push.org", port: 443, addresses: ["93.184.216.34"])
        #expect(checked.destination("https://public.example-push.org/p/one") == .success(pin))
        #expect(checked.destination("https://Public.Example-Push.org/p/two?x") == .success(pin))
        #expect(resolver.lookups == ["public.example-push.org"])
        #expect(checked.destination("https://inside.example-push.org/a") == .failure(.init(
            reason: "the endpoint's host inside.example-push.org resolves to a private address")))
        #expect(throws: WebPushEndpointPolicy.Refusal.self) { try checked.destination("https://inside.example-push.org/b").get() }
        #expect(checked.destination("https://public.example-push.org:8443/p/three")
                == .success(ResolvedHost(host: "public.example-push.org", port: 8443, addresses: ["93.184.216.34"])))
        #expect(throws: WebPushEndpointPolicy.Refusal.self) { try checked.destination("http://public.example-push.org/p/four").get() }
        #expect(checked.destination("https://gone.example-push.org/c") == .failure(.init(
            reason: "the endpoint's host gone.example-push.org does not resolve", passing: true)))
        #expect(resolver.lookups == ["public.example-push.org", "inside.example-push.org", "inside.example-push.org",
                                     "public.example-push.org", "gone.example-push.org"])
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

/// A resolver that notes each host it is asked for.
final class CountingResolver: HostResolver, @unchecked Sendable {
    let inner: FixedResolver
    private(set) var lookups: [String] = []
    init(_ inner: FixedResolver) { self.inner = inner }
    func addresses(of host: String) -> [IPAddress] {
        lookups.append(host)
        return inner.addresses(of: host)
    }
}
