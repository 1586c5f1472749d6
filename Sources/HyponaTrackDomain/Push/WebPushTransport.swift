import Crypto
import HTJSON
import HTTPClient

/// Web Push (RFC 8030) to a browser's subscription: the JSON `{title, body, kind, date, slot}`
/// encrypted for the subscription (RFC 8291 `aes128gcm`), VAPID authorization (RFC 8292), `TTL`
/// until the slot ends, `Urgency: high`, and `Topic` = the collapse id so a resend replaces the
/// first. The endpoint is checked against the policy again before each request (a name may
/// resolve elsewhere since it was registered).
struct WebPushTransport: PushTransport {
    let vapid: VAPID
    let policy: WebPushEndpointPolicy
    let client: HTTPClient

    func send(_ message: PushMessage, to address: PushAddress, now: Int64) -> PushSendResult {
        guard case .webPush(let endpoint, let p256dh, let auth) = address else { return .failed("not a Web Push subscription") }
        if let problem = policy.problem(endpoint) { return .failed(problem) }
        let body: [UInt8], authorization: String
        do {
            let subscription = try WebPushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth)
            body = try WebPush.encrypt(Array(Self.payload(message).utf8), for: subscription)
            authorization = try vapid.authorization(audience: subscription.origin, now: now)
        } catch {
            return .failed("\(error)")
        }
        let headers: HTTPHeaders = [
            "TTL": String(message.ttl(now: now)), "Urgency": "high", "Topic": message.collapseId,
            "Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream", "Authorization": authorization,
        ]
        let response: HTTPClientResponse
        do {
            response = try client.send(HTTPClientRequest(method: .post, url: endpoint, headers: headers, body: body))
        } catch {
            // Not error.description: an endpoint's path is the subscription's secret name.
            return .retry("\(error.kind.summary): \(error.detail)", afterSeconds: nil)
        }
        return PushResponses.classify(status: response.status, retryAfter: response.headers["retry-after"], now: now,
                                      goneStatuses: [404, 410], reason: "Web Push")
    }

    /// `{"title", "body", "kind", "date", "slot"}`, members in this order.
    struct Payload: Encodable {
        let title: String, body: String, kind: String, date: String, slot: String
    }

    static func payload(_ m: PushMessage) -> String {
        (try? JSONTextEncoder.string(Payload(title: PushMessage.title, body: m.body, kind: m.kind, date: m.date, slot: m.slot))) ?? "{}"
    }
}

/// The outcome mapping every transport shares (docs/product.md, W, "Delivery").
enum PushResponses {
    static func classify(status: Int, retryAfter: String?, now: Int64, goneStatuses: Set<Int>, reason: String) -> PushSendResult {
        switch status {
        case 200...299: return .sent
        case _ where goneStatuses.contains(status): return .gone("\(reason) HTTP \(status)")
        case 429, 500...599:
            return .retry("\(reason) HTTP \(status)", afterSeconds: retryAfter.flatMap { RetryAfter.seconds($0, now: now) })
        default: return .failed("\(reason) HTTP \(status)")
        }
    }
}
