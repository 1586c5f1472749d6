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
/// batch: the refused requests go again together); any other 4xx → failed.
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
    }

    var multiplexes: Bool { true }

    func send(_ message: PushMessage, to address: PushAddress, now: Int64) -> PushSendResult {
        var result = PushSendResult.failed("not sent")
        send([PushItem(message: message, address: address)], now: now) { _, r in result = r }
        return result
    }

    /// All at once over the multiplexed client's HTTP/2 connections; those refused with 403
    /// (the provider token) once more, together, with a new token.
    func send(_ items: [PushItem], now: Int64, done: (Int, PushSendResult) -> Void) {
        var pending = Array(items.indices)
        for remake in [false, true] {
            let bearer: String
            do { bearer = try providerToken(now: now, remake: remake) } catch {
                for i in pending { done(i, .failed("APNs provider token: \(error)")) }
                return
            }
            var requests: [HTTPClientRequest] = [], sent: [Int] = []
            for i in pending {
                switch request(items[i], bearer: bearer) {
                case .success(let r): requests.append(r); sent.append(i)
                case .failure(let refused): done(i, refused.result)
                }
            }
            var refused: [Int] = []
            client.send(requests) { k, answer in
                let i = sent[k]
                switch answer {
                case .failure(let error): done(i, .retry("APNs: \(error.kind.summary): \(error.detail)", afterSeconds: nil))
                case .success(let response) where response.status == 403 && !remake: refused.append(i)
                case .success(let response): done(i, Self.outcome(response, now: now))
                }
            }
            if refused.isEmpty { return }
            pending = refused
        }
    }

    struct Refusal: Error { let result: PushSendResult }

    private func request(_ item: PushItem, bearer: String) -> Result<HTTPClientRequest, Refusal> {
        guard case .token(let deviceToken) = item.address,
              deviceToken.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46) }) else {
            return .failure(Refusal(result: .gone("BadDeviceToken: an APNs token is hexadecimal")))
        }
        let m = item.message
        let body: String
        do {
            body = try JSONTextEncoder.string(Payload(aps: .init(alert: .init(title: PushMessage.title, body: m.body)),
                                                      kind: m.kind, date: m.date, slot: m.slot))
        } catch { return .failure(Refusal(result: .failed("the payload could not be written: \(error)"))) }
        let headers: HTTPHeaders = [
            "authorization": "bearer \(bearer)", "apns-push-type": "alert", "apns-topic": topic, "apns-priority": "10",
            "apns-expiration": String(m.expiresAt), "apns-collapse-id": m.collapseId,
        ]
        return .success(.json(method: .post, url: "\(baseURL)/3/device/\(deviceToken)", body: body, headers: headers))
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

    /// `{"reason": "…"}` of an error answer.
    static func reason(_ body: [UInt8]) -> String? {
        struct Answer: Decodable { let reason: String? }
        return (try? JSONDecoder().decode(Answer.self, from: Data(body)))?.reason
    }

    private func providerToken(now: Int64, remake: Bool) throws -> String {
        if !remake, let cached = token.withLock({ $0 }), now - cached.issuedAt < Self.tokenLifetime { return cached.value }
        let value = try JWT(keyId: keyId, type: nil, claims: JWTClaims(issuer: teamId, issuedAt: now)).signed(with: key)
        token.withLock { $0 = (value, now) }
        return value
    }
}
