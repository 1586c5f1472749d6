/// Voluntary Application Server Identification for Web Push (RFC 8292): the application
/// server's P-256 key, whose public half the browser subscribed with, and the contact `sub`.
///
/// ```swift
/// let vapid = try VAPID(key: P256PrivateKey(pemFile: path, source: "push.webPush.vapidKeyFile (\(path))"),
///                       subject: "mailto:study-it@example.org")
/// request.headers["Authorization"] = try vapid.authorization(audience: subscription.origin, now: now)
/// page.attributes["data-vapid-key"] = vapid.publicKeyBase64URL
/// ```
public struct VAPID: Sendable {
    /// RFC 8292 §2: "An 'exp' claim MUST NOT be more than 24 hours from the time of the request."
    public static let maximumLifetime: Int64 = 24 * 60 * 60

    public let key: P256PrivateKey
    /// `mailto:` or `https:` contact (RFC 8292 §2.1).
    public let subject: String

    public init(key: P256PrivateKey, subject: String) throws(WebPushError) {
        let lowered = subject.lowercased()
        let isMail = lowered.hasPrefix("mailto:") && subject.dropFirst(7).contains("@")
        let isWeb = lowered.hasPrefix("https://") && subject.count > "https://".count
        guard isMail || isWeb, !subject.contains(where: { $0.isWhitespace }) else {
            throw .invalidSubject
        }
        self.key = key
        self.subject = subject
    }

    /// The public key as base64url of the uncompressed point, no padding: the page's
    /// `data-vapid-key` (the Push API's `applicationServerKey`) and the header's `k=`.
    public var publicKeyBase64URL: String { key.publicKeyBase64URL }

    /// The signed token of RFC 8292 §2: an ES256 JWT, header `{"typ":"JWT","alg":"ES256"}`,
    /// claims `aud` (the push resource's origin), `exp` (`now + lifetime`) and `sub`.
    /// - Parameters:
    ///   - audience: `WebPushSubscription.origin`, or `WebPushSubscription.origin(of:)`.
    ///   - now: Seconds since the Unix epoch.
    ///   - lifetime: 1 s … 24 h; a token may be reused for the same audience until shortly
    ///     before it expires.
    public func token(audience: String, now: Int64, lifetime: Int64 = 12 * 60 * 60) throws(WebPushError) -> String {
        guard (1...Self.maximumLifetime).contains(lifetime) else {
            throw .invalidLifetime(seconds: lifetime)
        }
        let origin = try WebPushSubscription.origin(of: audience)
        let jwt = JWT(claims: JWTClaims(subject: subject, audience: origin, expiresAt: now + lifetime))
        return try WebPushError.wrapping { () throws(CryptoError) in try jwt.signed(with: key) }
    }

    /// The `Authorization` header value of RFC 8292 §3: `vapid t=<token>,k=<public key>`.
    /// Written without a space after the comma, as in the RFC's example and as pywebpush
    /// sends it (a space is allowed by RFC 7235's `auth-param` list, but some parsers split on
    /// the last space).
    public func authorization(audience: String, now: Int64, lifetime: Int64 = 12 * 60 * 60) throws(WebPushError) -> String {
        "vapid t=\(try token(audience: audience, now: now, lifetime: lifetime)),k=\(publicKeyBase64URL)"
    }
}
