import Crypto
import HTJSON
import HTTPClient

/// Web Push (RFC 8030) to a browser's subscription: the JSON `{title, body, kind, date, slot}`
/// encrypted for the subscription (RFC 8291 `aes128gcm`), VAPID authorization (RFC 8292), `TTL`
/// until the slot ends, `Urgency: high`, and `Topic` = the collapse id so a resend replaces the
/// first. The endpoint is checked against the policy again before each request (a name may
/// resolve elsewhere since it was registered), and the request connects to the addresses that
/// check saw (`CURLOPT_RESOLVE`), never to a second lookup's.
struct WebPushTransport: PushTransport {
    let vapid: VAPID
    let policy: WebPushEndpointPolicy
    /// Many at once: HTTP/2 streams to the push services that speak it (they all do), else up
    /// to its connection limit of HTTP/1.1 requests at a time.
    let client: MultiplexedHTTPClient

    var multiplexes: Bool { true }

    func send(_ message: PushMessage, to address: PushAddress, now: Int64) -> PushSendResult {
        push(now: now).send(client, message, to: address)
    }

    func stream(next: () -> (Int, PushItem)?, now: Int64, done: (Int, PushSendResult) -> Void) {
        push(now: now).stream(client, next: next, done: done)
    }

    /// A subscription the policy refuses now is `failed`, not sent; a failure without an answer
    /// names no endpoint (its path is the subscription's secret name). The policy's check (a DNS
    /// lookup) is made once per push service and call, not once per push: the lookups run
    /// inside the transfer loop, where the timeouts of the pushes in flight run meanwhile.
    private func push(now: Int64) -> MultiplexedPush {
        let checked = CheckedDestinations(policy: policy)
        return MultiplexedPush(prepare: { [self] item in
            guard case .webPush(let endpoint, let p256dh, let auth) = item.address else {
                return .failure(.init(result: .failed("not a Web Push subscription")))
            }
            return request(item.message, endpoint: endpoint, p256dh: p256dh, auth: auth, now: now, destination: checked.destination)
                .mapError { .init(result: $0.passing ? .retry($0.reason, afterSeconds: nil) : .failed($0.reason)) }
        }, outcome: { response in
            PushResponses.classify(status: response.status, retryAfter: response.headers["retry-after"], now: now,
                                   goneStatuses: [404, 410], reason: "Web Push")
        }, service: "Web Push")
    }

    /// The encrypted, signed POST to the endpoint, connecting to the addresses the policy just
    /// checked; or why the endpoint is refused.
    func request(_ message: PushMessage, endpoint: String, p256dh: String, auth: String, now: Int64,
                 destination: ((String) -> Result<ResolvedHost?, WebPushEndpointPolicy.Refusal>)? = nil)
        -> Result<HTTPClientRequest, WebPushEndpointPolicy.Refusal> {
        let pin: ResolvedHost?
        switch (destination ?? policy.destination)(endpoint) {
        case .success(let p): pin = p
        case .failure(let refusal): return .failure(refusal)
        }
        let body: [UInt8], authorization: String
        do {
            let subscription = try WebPushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth)
            body = try WebPush.encrypt(Array(Self.payload(message).utf8), for: subscription)
            authorization = try vapid.authorization(audience: subscription.origin, now: now)
        } catch {
            return .failure(.init(reason: "\(error)"))
        }
        let headers: HTTPHeaders = [
            "TTL": String(message.ttl(now: now)), "Urgency": "high", "Topic": message.collapseId,
            "Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream", "Authorization": authorization,
        ]
        var request = HTTPClientRequest(method: .post, url: endpoint, headers: headers, body: body)
        request.resolvedHost = pin
        return .success(request)
    }

    /// `{"title", "body", "kind", "date", "slot"}`, members in this order.
    struct Payload: Encodable {
        let title: String, body: String, kind: String, date: String, slot: String
    }

    static func payload(_ m: PushMessage) -> String {
        (try? JSONTextEncoder.string(Payload(title: PushMessage.title, body: m.body, kind: m.kind, date: m.date, slot: m.slot))) ?? "{}"
    }
}

/// The policy's approvals for the push services of one call, by scheme and authority (the
/// endpoints' paths differ, their services repeat), each kept for a minute; a refusal is not
/// kept (the next push asks again), so a passing DNS failure refuses only the pushes made during it.
final class CheckedDestinations {
    static let keptFor: Duration = .seconds(60)
    let policy: WebPushEndpointPolicy
    private var approved: [String: (pin: ResolvedHost?, at: ContinuousClock.Instant)] = [:]

    init(policy: WebPushEndpointPolicy) { self.policy = policy }

    func destination(_ endpoint: String) -> Result<ResolvedHost?, WebPushEndpointPolicy.Refusal> {
        let key = Self.origin(of: endpoint), now = ContinuousClock.now
        if let known = approved[key], now - known.at < Self.keptFor { return .success(known.pin) }
        let answer = policy.destination(endpoint)
        if case .success(let pin) = answer { approved[key] = (pin, now) }
        return answer
    }

    /// `scheme://authority` of a URL, lowercased (all of it when it has no path).
    static func origin(of url: String) -> String {
        let lower = url.lowercased()
        guard let scheme = lower.range(of: "://") else { return lower }
        let rest = lower[scheme.upperBound...]
        return String(lower[..<scheme.upperBound] + rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
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
