import Crypto
import Foundation
import HTJSON
import HTTPClient
import Synchronization

/// Firebase Cloud Messaging HTTP v1 (docs/product.md, W, "Transports"): an OAuth 2 access token
/// from the service account (an RS256 JWT assertion to its `token_uri`, RFC 7523), cached until
/// a minute before it expires, then `POST {url}/v1/projects/{project_id}/messages:send` with
/// `message.token`, `notification {title, body}`, `data {kind, date, slot}` and `android
/// {priority: high, ttl, collapse_key}`. 404 or `UNREGISTERED` → gone; 429 and 5xx → retry;
/// a 401/403 refreshes the token once and tries again; any other 4xx → failed.
final class FCMTransport: PushTransport {
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    let account: FCMServiceAccount
    let sendURL: String
    /// For the token endpoint (one request an hour).
    let client: HTTPClient
    /// For the sends, many at once (FCM speaks HTTP/2).
    let sender: MultiplexedHTTPClient
    private let token = Mutex<(value: String, expiresAt: Int64)?>(nil)

    init(account: FCMServiceAccount, url: String, client: HTTPClient, sender: MultiplexedHTTPClient) {
        self.account = account
        sendURL = "\(url)/v1/projects/\(account.projectId)/messages:send"
        self.client = client
        self.sender = sender
    }

    var multiplexes: Bool { true }

    func send(_ message: PushMessage, to address: PushAddress, now: Int64) -> PushSendResult {
        push(now: now).send(sender, message, to: address)
    }

    /// The access token is made sure of before the first send: fetching it inside the transfer
    /// loop would hold up the answers of sends in flight (their timeouts run meanwhile). When it
    /// cannot be had, every push of the call gets that outcome, without a fetch each.
    func stream(next: () -> (Int, PushItem)?, now: Int64, done: (Int, PushSendResult) -> Void) {
        if case .failure(let refused) = accessToken(now: now, refresh: false) {
            while let (i, _) = next() { done(i, refused.result) }
            return
        }
        push(now: now).stream(sender, next: next, done: done)
    }

    /// A 401 or 403 (other than `UNREGISTERED`, which is gone) fetches a new access token once
    /// (per call) and sends again.
    private func push(now: Int64) -> MultiplexedPush {
        MultiplexedPush(prepare: { [self] item in
            guard case .token(let deviceToken) = item.address else { return .failure(.init(result: .failed("not an FCM token"))) }
            let body: String
            do { body = try JSONTextEncoder.string(Self.body(item.message, token: deviceToken, now: now)) } catch {
                return .failure(.init(result: .failed("the message could not be written: \(error)")))
            }
            return accessToken(now: now, refresh: false).map { bearer in
                .json(method: .post, url: sendURL, body: body, headers: ["Authorization": "Bearer \(bearer)"])
            }
        }, refusesCredential: { ($0.status == 401 || $0.status == 403) && Self.errorCode($0.body) != "UNREGISTERED" }, renew: { [self] in
            switch accessToken(now: now, refresh: true) {
            case .success: return nil
            case .failure(let refused): return refused.result
            }
        }, outcome: { Self.outcome($0, now: now) }, service: "FCM")
    }

    /// 404 or `UNREGISTERED` → gone; the rest as every transport.
    static func outcome(_ response: HTTPClientResponse, now: Int64) -> PushSendResult {
        let code = errorCode(response.body)
        if response.status == 404 || code == "UNREGISTERED" { return .gone("FCM HTTP \(response.status) \(code ?? "")") }
        return PushResponses.classify(status: response.status, retryAfter: response.headers["retry-after"], now: now,
                                      goneStatuses: [], reason: "FCM\(code.map { " \($0)" } ?? "")")
    }

    struct Body: Encodable {
        struct Message: Encodable {
            struct Notification: Encodable { let title: String, body: String }
            struct Data: Encodable { let kind: String, date: String, slot: String }
            struct Android: Encodable {
                let priority = "high"
                let ttl: String
                let collapse_key: String
            }
            let token: String
            let notification: Notification
            let data: Data
            let android: Android
        }
        let message: Message
    }

    static func body(_ m: PushMessage, token: String, now: Int64) -> Body {
        Body(message: .init(token: token, notification: .init(title: PushMessage.title, body: m.body),
                            data: .init(kind: m.kind, date: m.date, slot: m.slot),
                            android: .init(ttl: "\(m.ttl(now: now))s", collapse_key: m.collapseId)))
    }

    /// `error.details[].errorCode` (FCM's `FcmError`) or `error.status` of an error answer.
    static func errorCode(_ body: [UInt8]) -> String? {
        struct Answer: Decodable {
            struct Error: Decodable {
                struct Detail: Decodable { let errorCode: String? }
                let status: String?
                let details: [Detail]?
            }
            let error: Error?
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: Data(body)), let error = answer.error else { return nil }
        return error.details?.compactMap(\.errorCode).first ?? error.status
    }

    /// The cached access token, or a new one from the token endpoint.
    private func accessToken(now: Int64, refresh: Bool) -> Result<String, MultiplexedPush.Refused> {
        if !refresh, let cached = token.withLock({ $0 }), cached.expiresAt > now + 60 { return .success(cached.value) }
        let assertion: String
        do {
            let claims = JWTClaims(issuer: account.clientEmail, audience: account.tokenURI, issuedAt: now, expiresAt: now + 3600,
                                   other: ["scope": .string(Self.scope)])
            assertion = try JWT(claims: claims).signed(with: account.key)
        } catch {
            return .failure(MultiplexedPush.Refused(result: .failed("FCM: the assertion could not be signed: \(error)")))
        }
        let response: HTTPClientResponse
        do {
            response = try client.send(.formURLEncoded(url: account.tokenURI, fields: [
                ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion)]))
        } catch {
            return .failure(MultiplexedPush.Refused(result: .retry("FCM token: \(error.kind.summary): \(error.detail)", afterSeconds: nil)))
        }
        struct Answer: Decodable { let access_token: String, expires_in: Int64 }
        guard response.isSuccess, let answer = try? JSONDecoder().decode(Answer.self, from: Data(response.body)) else {
            let result = PushResponses.classify(status: response.isSuccess ? 502 : response.status,
                                                retryAfter: response.headers["retry-after"], now: now, goneStatuses: [],
                                                reason: "FCM token endpoint")
            return .failure(MultiplexedPush.Refused(result: result))
        }
        token.withLock { $0 = (answer.access_token, now + answer.expires_in) }
        return .success(answer.access_token)
    }
}
