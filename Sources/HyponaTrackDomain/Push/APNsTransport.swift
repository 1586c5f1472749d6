import Crypto
import Foundation
import HTJSON
import HTTPClient
import Synchronization

/// Apple Push Notification service (docs/product.md, W, "Transports"): HTTP/2 (libcurl's
/// `CURL_HTTP_VERSION_2TLS`) to `{url}/3/device/{token}` with a provider token — an ES256 JWT
/// with `kid` (key ID), `iss` (team ID) and `iat` — made again after 40 minutes (Apple refuses
/// one refreshed more often than every 20 minutes and one older than an hour), the headers
/// `apns-push-type: alert`, `apns-topic`, `apns-priority: 10`, `apns-expiration` (the slot's end)
/// and `apns-collapse-id`, and the body `{"aps": {"alert": {title, body}, "sound": "default"},
/// kind, date, slot}`. 410, `BadDeviceToken` and `Unregistered` → gone; 429 and 5xx → retry;
/// a 403 (`ExpiredProviderToken`, `InvalidProviderToken`) makes the token again once; any other
/// 4xx → failed.
final class APNsTransport: PushTransport {
    static let tokenLifetime: Int64 = 40 * 60
    let key: P256PrivateKey
    let keyId: String
    let teamId: String
    let topic: String
    let baseURL: String
    let client: HTTPClient
    private let token = Mutex<(value: String, issuedAt: Int64)?>(nil)

    init(key: P256PrivateKey, configuration c: ServerConfiguration.Push.APNs, client: HTTPClient) {
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

    func send(_ message: PushMessage, to address: PushAddress, now: Int64) -> PushSendResult {
        guard case .token(let deviceToken) = address,
              deviceToken.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46) }) else {
            return .gone("BadDeviceToken: an APNs token is hexadecimal")
        }
        let body: String
        do {
            body = try JSONTextEncoder.string(Payload(aps: .init(alert: .init(title: PushMessage.title, body: message.body)),
                                                      kind: message.kind, date: message.date, slot: message.slot))
        } catch { return .failed("the payload could not be written: \(error)") }
        var remade = false
        while true {
            let bearer: String
            do { bearer = try providerToken(now: now, remake: remade) } catch { return .failed("APNs provider token: \(error)") }
            let headers: HTTPHeaders = [
                "authorization": "bearer \(bearer)", "apns-push-type": "alert", "apns-topic": topic, "apns-priority": "10",
                "apns-expiration": String(message.expiresAt), "apns-collapse-id": message.collapseId,
            ]
            let response: HTTPClientResponse
            do {
                response = try client.send(.json(method: .post, url: "\(baseURL)/3/device/\(deviceToken)", body: body, headers: headers))
            } catch {
                return .retry("APNs: \(error.kind.summary): \(error.detail)", afterSeconds: nil)
            }
            let reason = Self.reason(response.body)
            if response.status == 410 || reason == "BadDeviceToken" || reason == "Unregistered" {
                return .gone("APNs HTTP \(response.status) \(reason ?? "")")
            }
            if response.status == 403 && !remade { remade = true; continue }
            return PushResponses.classify(status: response.status, retryAfter: response.headers["retry-after"], now: now,
                                          goneStatuses: [], reason: "APNs\(reason.map { " \($0)" } ?? "")")
        }
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
