import HTTPClient

/// A Standard Webhooks endpoint (docs/operations.md, "Webhooks"): the event JSON is POSTed with
/// `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (this attempt),
/// `webhook-signature: v1,…` and `content-type: application/json`.
///
/// Success is 2xx only. 410 Gone disables the hook; 3xx is a failure and never followed (a
/// moved endpoint is a configuration change, and a redirect would carry the signed event to
/// wherever it points); 429, 5xx and every other status are retried, after the receiver's
/// `retry-after` when it sent one. HTTPS is required except to the loopback interface.
public struct WebhookTransport: HookTransport {
    /// The endpoint.
    public let url: String
    private let key: [UInt8]
    private let client: HTTPClient
    private let timeout: Duration

    /// - Parameters:
    ///   - url: An `https://` URL (or `http://` to 127.0.0.1, ::1 or localhost).
    ///   - key: The HMAC key: ``WebhookSignature/decodeSecret(_:)`` of the `whsec_…` secret.
    ///   - client: The HTTP client; it must not follow redirects (the default configuration).
    ///   - timeout: The whole attempt's limit (the spec suggests 15–30 s).
    public init(url: String, secret key: [UInt8], client: HTTPClient, timeout: Duration = .seconds(20)) {
        self.url = url
        self.key = key
        self.client = client
        self.timeout = timeout
    }

    /// A transport with its own client trusting `caFile` (nil: the system CAs).
    public init(url: String, secret key: [UInt8], caFile: String?, timeout: Duration = .seconds(20)) {
        self.init(url: url, secret: key, client: Self.makeClient(caFile: caFile), timeout: timeout)
    }

    /// The client configuration webhooks want: no redirects, a small response cap (only the
    /// status matters), 10 s to connect.
    public static func makeClient(caFile: String?) -> HTTPClient {
        HTTPClient(configuration: HTTPClientConfiguration(
            caFile: caFile, userAgent: "HyponaTrack-webhook", timeout: .seconds(30), connectTimeout: .seconds(10),
            followRedirects: false, maxResponseBytes: 64 * 1024, maxIdleHandles: 2))
    }

    public func deliver(eventId: String, timestamp: Int64, body: [UInt8]) -> DeliveryResult {
        if let problem = Self.validateURL(url) { return .failed("the webhook URL \(problem)") }
        let headers: HTTPHeaders = [
            "webhook-id": eventId,
            "webhook-timestamp": String(timestamp),
            "webhook-signature": WebhookSignature.sign(key: key, id: eventId, timestamp: timestamp, body: body),
            "content-type": "application/json",
        ]
        let response: HTTPClientResponse
        do {
            response = try client.send(HTTPClientRequest(method: .post, url: url, headers: headers, body: body, timeout: timeout))
        } catch {
            // Not error.description: it quotes the URL's path, and webhook URLs often carry a
            // secret there (chat-service style). The hook's name identifies the endpoint.
            let reason = "\(error.kind.summary): \(error.detail)" + (error.curlCode.map { " (CURLcode \($0))" } ?? "")
            switch error.kind {
            case .invalidURL, .invalidRequest: return .failed(reason)
            default: return .retry(reason: reason, afterSeconds: nil)
            }
        }
        let status = response.status
        switch status {
        case 200...299:
            return .delivered
        case 410:
            return .gone("the receiver asked to be disabled\(Self.excerpt(response.body))")
        case 300...399:
            return .retry(reason: "HTTP \(status): a redirect, which webhooks do not follow (check the hook URL)",
                          afterSeconds: nil)
        default:
            let after = response.headers["retry-after"].flatMap { RetryAfter.seconds($0, now: timestamp) }
            return .retry(reason: "HTTP \(status)\(Self.excerpt(response.body))", afterSeconds: after)
        }
    }

    /// Why `url` cannot be a webhook endpoint, or nil when it can: an absolute `https://` URL
    /// with a host, or `http://` to 127.0.0.1, [::1] or localhost; no user information (the
    /// signature authenticates, and a password in a config URL ends up in logs); no spaces or
    /// control characters.
    public static func validateURL(_ url: String) -> String? {
        guard !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            return "contains a space or a control character"
        }
        let lowered = url.lowercased()
        let isHTTPS = lowered.hasPrefix("https://")
        guard isHTTPS || lowered.hasPrefix("http://") else {
            return "must start with https:// (or http:// to 127.0.0.1, ::1 or localhost)"
        }
        let rest = lowered.dropFirst(isHTTPS ? 8 : 7)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.contains("@") else { return "must not contain user information (user:password@)" }
        let host: Substring
        let portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return "has an unterminated IPv6 address" }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return "has an invalid host" }
            portText = after.isEmpty ? nil : after.dropFirst()
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts.first ?? ""
            portText = parts.count > 1 ? parts[1] : nil
        }
        guard !host.isEmpty, host != "[]" else { return "has no host" }
        if let portText {
            guard let port = Int(portText), (1...65535).contains(port) else { return "has an invalid port" }
        }
        if !isHTTPS, !["127.0.0.1", "[::1]", "localhost"].contains(String(host)) {
            return "must use https:// (plain http:// is allowed only to 127.0.0.1, ::1 or localhost)"
        }
        return nil
    }

    /// ": <the start of the response body>" for an operator, printable characters only, or "".
    private static func excerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(160), as: UTF8.self)
        let printable = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        let trimmed = printable.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return trimmed.isEmpty ? "" : ": " + trimmed
    }
}
