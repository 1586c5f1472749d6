import Crypto
import Foundation
import HTJSON
import HTTPClient
import Synchronization

/// Apple Push Notification service (docs/product.md, W, "Transports"): HTTP/2, a batch's
/// requests multiplexed as concurrent streams over at most 4 connections
/// (``MultiplexedHTTPClient``), to `{url}/3/device/{token}` with a provider token — an ES256 JWT
/// with `kid` (key ID), `iss` (team ID) and `iat` — made again after 40 minutes (Apple refuses
/// one refreshed more often than every 20 minutes and one older than an hour), the headers
/// `apns-push-type: alert`, `apns-topic`, `apns-priority: 10`, `apns-expiration` (the slot's end)
/// and `apns-collapse-id`, and the body `{"aps": {"alert": {title, body}, "sound": "default"},
/// kind, date, slot}`. 410, `BadDeviceToken` and `Unregistered` → gone; 429 and 5xx → retry;
/// a 403 (`ExpiredProviderToken`, `InvalidProviderToken`) makes the token again once (once per
/// call of `stream`); any other 4xx → failed.
final class APNsTransport: PushTransport {
    static let tokenLifetime: Int64 = 40 * 60
    let key: P256PrivateKey
    let keyId: String
    let teamId: String
    let topic: String
    let baseURL: String
    let client: MultiplexedHTTPClient
    private let token = Mutex<(value: String, issuedAt: Int64)?>(nil)

    init(key: P256PrivateKey, configuration c: ServerConfiguration.Push.APNs, client: MultiplexedHTTPClient) {
        self.key = key
        keyId = c.keyId
        teamId = c.teamId
        topic = c.topic
        baseURL = c.url
        self.client = client
    }

    struct Payload: Encodable {
        struct APS: Encodable {
            struct Alert: Encodable { let title: String, body: String }
            let alert: Alert
            let sound = "default"
        }
        let aps: APS
        let kind: String, date: String, slot: String

        /// The same text as `JSONTextEncoder.string(self)`, written member by member: one is
        /// written per push, and `Encodable`'s containers cost more than the text
        /// (`APNsPayloadTests` holds the two to the same bytes).
        var text: [UInt8] {
            let b = JSONTextBuilder()
            b.beginObject()
            b.member("aps")
            b.beginObject()
            b.member("alert")
            b.beginObject()
            b.member("title"); b.string(aps.alert.title)
            b.member("body"); b.string(aps.alert.body)
            b.end()
            b.member("sound"); b.string(aps.sound)
            b.end()
            b.member("kind"); b.string(kind)
            b.member("date"); b.string(date)
            b.member("slot"); b.string(slot)
            b.end()
            return b.bytes
        }
    }

    var multiplexes: Bool { true }

    func send(_ message: PushMessage, to address: PushAddress, now: Int64) -> PushSendResult {
        push(now: now).send(client, message, to: address)
    }

    /// As the multiplexed client's HTTP/2 streams free up, one request per item. One refused
    /// with 403 (the provider token) goes again once, after the token was made again (once per
    /// call: those in flight with the old token come back refused too and go again with the new).
    func stream(next: () -> (Int, PushItem)?, now: Int64, done: (Int, PushSendResult) -> Void) {
        push(now: now).stream(client, next: next, done: done)
    }

    private func push(now: Int64) -> MultiplexedPush {
        MultiplexedPush(prepare: { [self] item in
            let bearer: String
            do { bearer = try providerToken(now: now, remake: false) } catch {
                return .failure(.init(result: .failed("APNs provider token: \(error)")))
            }
            return request(item, bearer: bearer)
        }, refusesCredential: { $0.status == 403 }, renew: { [self] in
            do { _ = try providerToken(now: now, remake: true) } catch { return .failed("APNs provider token: \(error)") }
            return nil
        }, outcome: { Self.outcome($0, now: now) }, service: "APNs")
    }

    private func request(_ item: PushItem, bearer: String) -> Result<HTTPClientRequest, MultiplexedPush.Refused> {
        guard case .token(let deviceToken) = item.address,
              deviceToken.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46) }) else {
            return .failure(.init(result: .gone("BadDeviceToken: an APNs token is hexadecimal")))
        }
        let m = item.message
        let body = Payload(aps: .init(alert: .init(title: PushMessage.title, body: m.body)), kind: m.kind, date: m.date, slot: m.slot).text
        let headers: HTTPHeaders = [
            "authorization": "bearer \(bearer)", "apns-push-type": "alert", "apns-topic": topic, "apns-priority": "10",
            "apns-expiration": String(m.expiresAt), "apns-collapse-id": m.collapseId,
        ]
        return .success(.json(method: .post, url: "\(baseURL)/3/device/\(deviceToken)", bytes: body, headers: headers))
    }

    /// 410, `BadDeviceToken` and `Unregistered` → gone; the rest as every transport.
    static func outcome(_ response: HTTPClientResponse, now: Int64) -> PushSendResult {
        let reason = Self.reason(response.body)
        if response.status == 410 || reason == "BadDeviceToken" || reason == "Unregistered" {
            return .gone("APNs HTTP \(response.status) \(reason ?? "")")
        }
        return PushResponses.classify(status: response.status, retryAfter: response.headers["retry-after"], now: now,
                                      goneStatuses: [], reason: "APNs\(reason.map { " \($0)" } ?? "")")
    }

    /// `{"reason": "…"}` of an error answer (a 200 has no body: nothing to decode).
    static func reason(_ body: [UInt8]) -> String? {
        struct Answer: Decodable { let reason: String? }
        guard !body.isEmpty else { return nil }
        return (try? JSONDecoder().decode(Answer.self, from: Data(body)))?.reason
    }

    private func providerToken(now: Int64, remake: Bool) throws -> String {
        if !remake, let cached = token.withLock({ $0 }), now - cached.issuedAt < Self.tokenLifetime { return cached.value }
        let value = try JWT(keyId: keyId, type: nil, claims: JWTClaims(issuer: teamId, issuedAt: now)).signed(with: key)
        token.withLock { $0 = (value, now) }
        return value
    }
}
