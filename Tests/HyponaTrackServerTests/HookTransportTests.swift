import Foundation
import HTJSON
import HyponaTrackCore
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The three hook transports against real peers: `scripts/webhook-receiver` (an independent
/// Standard Webhooks verifier), real executables, and `scripts/smtp-receiver` over TLS. Each
/// test starts its own peers in its own temporary directory.
@Suite struct HookTransportTests {
    // MARK: - Webhooks

    @Suite struct Webhook {
        @Test func signedDeliveryVerifiesAtAnIndependentReceiver() throws {
            let receiver = try WebhookReceiver()
            let (event, body) = Fixture.alertEvent(id: "evt_signed")
            let result = receiver.transport().deliver(eventId: "evt_signed", timestamp: Fixture.now(), body: body, event: event)
            #expect(result == .delivered)
            let deliveries = try receiver.deliveries()
            #expect(deliveries.count == 1)
            let d = try #require(deliveries.first)
            #expect(d["verified"] == .bool(true), "receiver said: \(String(describing: d["error"]))")
            #expect(d["id"] == .string("evt_signed"))
            #expect(d["type"] == .string("alert.opened"))
            #expect(d["body"] == .string(String(decoding: body, as: UTF8.self)))
            #expect(d["path"] == .string("/hooks/ward"))
        }

        @Test func serverErrorIsRetriedWithTheSameWebhookId() throws {
            let receiver = try WebhookReceiver()
            try receiver.arm(["status": 500, "count": 1])
            let (event, body) = Fixture.alertEvent(id: "evt_retry")
            let first = receiver.transport().deliver(eventId: "evt_retry", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, let after) = first else { Issue.record("expected retry, got \(first)"); return }
            #expect(reason.contains("HTTP 500") && after == nil)
            let second = receiver.transport().deliver(eventId: "evt_retry", timestamp: Fixture.now() + 1, body: body, event: event)
            #expect(second == .delivered)
            let deliveries = try receiver.deliveries()
            #expect(deliveries.map { $0["id"] } == [.string("evt_retry"), .string("evt_retry")])
            #expect(deliveries.map { $0["answered"] } == [.number(500), .number(200)])
            #expect(deliveries.allSatisfy { $0["verified"] == .bool(true) })
        }

        @Test func goneMeansDisableTheEndpoint() throws {
            let receiver = try WebhookReceiver()
            try receiver.arm(["status": 410])
            let (event, body) = Fixture.alertEvent(id: "evt_gone")
            let result = receiver.transport().deliver(eventId: "evt_gone", timestamp: Fixture.now(), body: body, event: event)
            guard case .gone = result else { Issue.record("expected gone, got \(result)"); return }
        }

        @Test func retryAfterIsHonouredAsSecondsAndAsHTTPDate() throws {
            let receiver = try WebhookReceiver()
            let (event, body) = Fixture.alertEvent(id: "evt_later")
            try receiver.arm(["status": 503, "count": 1, "retryAfter": 120])
            let seconds = receiver.transport().deliver(eventId: "evt_later", timestamp: Fixture.now(), body: body, event: event)
            #expect(seconds == .retry(reason: "HTTP 503: {\"error\": \"armed status 503\"}", afterSeconds: 120))

            let now = Fixture.now()
            try receiver.arm(["status": 429, "count": 1, "retryAfter": .string(Fixture.httpDate(now + 90))])
            let date = receiver.transport().deliver(eventId: "evt_later", timestamp: now, body: body, event: event)
            guard case .retry(let reason, let after) = date else { Issue.record("expected retry, got \(date)"); return }
            #expect(reason.hasPrefix("HTTP 429") && after == 90)
        }

        @Test func redirectIsARetryAndIsNeverFollowed() throws {
            let receiver = try WebhookReceiver()
            try receiver.arm(["status": 302])
            let (event, body) = Fixture.alertEvent(id: "evt_moved")
            let result = receiver.transport().deliver(eventId: "evt_moved", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, _) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.contains("302") && reason.contains("redirect"))
            let deliveries = try receiver.deliveries()
            #expect(deliveries.count == 1)
            #expect(!deliveries.contains { $0["path"] == .string("/_redirected") })
        }

        @Test func staleTimestampIsRejectedByTheReceiverAndRetried() throws {
            let receiver = try WebhookReceiver()
            let (event, body) = Fixture.alertEvent(id: "evt_stale")
            let result = receiver.transport().deliver(eventId: "evt_stale", timestamp: Fixture.now() - 600, body: body, event: event)
            guard case .retry(let reason, _) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.hasPrefix("HTTP 400"))
            #expect(try receiver.deliveries().first?["error"] == .string("timestamp too old"))
        }

        @Test func wrongSecretIsRejectedByTheReceiver() throws {
            let receiver = try WebhookReceiver()
            let (event, body) = Fixture.alertEvent(id: "evt_wrongkey")
            let transport = WebhookTransport(url: receiver.url, secret: [UInt8](repeating: 1, count: 32), caFile: nil)
            let result = transport.deliver(eventId: "evt_wrongkey", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, _) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.hasPrefix("HTTP 401"))
            #expect(try receiver.deliveries().first?["verified"] == .bool(false))
        }

        @Test func httpsWithAPrivateCADeliversAndAnUntrustedCertificateIsRetried() throws {
            let receiver = try WebhookReceiver(tls: true)
            let caFile = try #require(receiver.peer.caFile)
            let (event, body) = Fixture.alertEvent(id: "evt_tls")
            let trusted = receiver.transport(caFile: caFile)
            #expect(trusted.deliver(eventId: "evt_tls", timestamp: Fixture.now(), body: body, event: event) == .delivered)
            #expect(try receiver.deliveries().first?["verified"] == .bool(true))

            let untrusted = receiver.transport(caFile: nil)
            let result = untrusted.deliver(eventId: "evt_tls", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, _) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.contains("TLS"))
            #expect(try receiver.deliveries().count == 1)
        }

        @Test func httpsIsRequiredExceptForLoopback() {
            #expect(WebhookTransport.validateURL("https://hooks.example.org/ward") == nil)
            #expect(WebhookTransport.validateURL("HTTPS://hooks.example.org:8443/x?y=1") == nil)
            #expect(WebhookTransport.validateURL("http://127.0.0.1:8080/hook") == nil)
            #expect(WebhookTransport.validateURL("http://localhost/hook") == nil)
            #expect(WebhookTransport.validateURL("http://[::1]:9000/hook") == nil)
            #expect(WebhookTransport.validateURL("http://hooks.example.org/ward") != nil)
            #expect(WebhookTransport.validateURL("http://127.0.0.1.example.org/") != nil)
            #expect(WebhookTransport.validateURL("http://10.0.0.5/hook") != nil)
            #expect(WebhookTransport.validateURL("ftp://hooks.example.org/") != nil)
            #expect(WebhookTransport.validateURL("https://user:pw@hooks.example.org/") != nil)
            #expect(WebhookTransport.validateURL("https:///nohost") != nil)
            #expect(WebhookTransport.validateURL("https://hooks.example.org:99999/") != nil)
            #expect(WebhookTransport.validateURL("https://hooks.example.org/a b") != nil)

            let (event, body) = Fixture.alertEvent(id: "evt_plain")
            let plain = WebhookTransport(url: "http://hooks.example.org/ward", secret: [UInt8](repeating: 1, count: 32), caFile: nil)
            guard case .failed(let reason) = plain.deliver(eventId: "evt_plain", timestamp: Fixture.now(), body: body, event: event) else {
                Issue.record("plain http to a remote host must fail permanently"); return
            }
            #expect(reason.contains("https"))
        }

        @Test func unreachableReceiverIsRetried() throws {
            let port: Int
            do {
                let receiver = try WebhookReceiver()
                port = receiver.peer.port
            } // stopped here: nothing listens on the port any more
            let (event, body) = Fixture.alertEvent(id: "evt_down")
            let transport = WebhookTransport(url: "http://127.0.0.1:\(port)/hooks/ward", secret: [UInt8](repeating: 1, count: 32),
                                             caFile: nil)
            let result = transport.deliver(eventId: "evt_down", timestamp: Fixture.now(), body: body, event: event)
            guard case .retry(let reason, nil) = result else { Issue.record("expected retry, got \(result)"); return }
            #expect(reason.contains("could not connect"))
        }
    }
}
