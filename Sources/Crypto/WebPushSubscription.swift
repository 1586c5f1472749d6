/// A browser's push subscription (the Push API's `PushSubscription.toJSON()`: `endpoint` and
/// `keys.p256dh`, `keys.auth`), checked once so that every later message can be encrypted.
/// Registering a device should build one of these and refuse what it throws.
public struct WebPushSubscription: Sendable, Equatable {
    /// The push resource URL the message is POSTed to (RFC 8030 §5).
    public let endpoint: String
    /// The endpoint's origin, the VAPID `aud` (RFC 8292 §2: it "MUST include the Unicode
    /// serialization of the origin … of the push resource URL").
    public let origin: String
    /// The user agent's ECDH public key, `ua_public` of RFC 8291 §3.1 (65 bytes).
    public let p256dh: [UInt8]
    /// The authentication secret of RFC 8291 §3.2 (16 bytes).
    public let auth: [UInt8]

    /// - Parameters:
    ///   - endpoint: Must be `https://` (docs/product.md, W: "Web Push endpoints must be
    ///     `https://`"); which hosts are allowed is the caller's policy.
    ///   - p256dh: base64url of the uncompressed P-256 point; a point off the curve is refused.
    ///   - auth: base64url of the 16-octet authentication secret of RFC 8291 §3.2.
    public init(endpoint: String, p256dh: String, auth: String) throws(WebPushError) {
        guard endpoint.lowercased().hasPrefix("https://") else {
            throw .invalidEndpoint(reason: "the endpoint must be an https:// URL")
        }
        origin = try Self.origin(of: endpoint)
        guard let point = Base64.url.decode(p256dh) else {
            throw .invalidPublicKey(reason: "p256dh is not base64url")
        }
        guard point.count == 65, point[0] == 0x04 else {
            throw .invalidPublicKey(reason: "p256dh is \(point.count) bytes, not a 65-byte uncompressed point")
        }
        guard P256PublicKey(uncompressed: point) != nil else {
            throw .invalidPublicKey(reason: "p256dh is not a point on the P-256 curve")
        }
        guard let secret = Base64.url.decode(auth), secret.count == 16 else {
            throw .invalidAuthSecret
        }
        self.endpoint = endpoint
        self.p256dh = point
        self.auth = secret
    }

    /// The serialisation of the URL's origin (RFC 6454 §6): scheme and host in lower case, the
    /// port only when it is not the scheme's default. Push services' hosts are ASCII, where the
    /// Unicode and the ASCII serialisation agree. `http://` is accepted here so that a test
    /// receiver can be named; the subscription itself insists on https.
    public static func origin(of url: String) throws(WebPushError) -> String {
        let lowered = url.lowercased()
        let scheme: String, defaultPort: Int
        if lowered.hasPrefix("https://") { (scheme, defaultPort) = ("https", 443) }
        else if lowered.hasPrefix("http://") { (scheme, defaultPort) = ("http", 80) }
        else { throw .invalidEndpoint(reason: "not an http(s) URL") }
        let afterScheme = lowered.dropFirst(scheme.count + 3)
        let authority = afterScheme.prefix { !"/?#".contains($0) }
        guard !authority.contains("@") else { throw .invalidEndpoint(reason: "a URL with user information") }
        var host = Substring(authority), port: Substring = ""
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidEndpoint(reason: "an unclosed IPv6 literal") }
            host = authority[...close]
            port = authority[authority.index(after: close)...]
            guard port.isEmpty || port.hasPrefix(":") else { throw .invalidEndpoint(reason: "junk after the IPv6 literal") }
            port = port.dropFirst()
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw .invalidEndpoint(reason: "a URL without a host")
        }
        if port.isEmpty { return "\(scheme)://\(host)" }
        guard port.count <= 5, port.allSatisfy(\.isASCIIDigit), let number = Int(port), (1...65535).contains(number) else {
            throw .invalidEndpoint(reason: "a port that is not a number from 1 to 65535")
        }
        return number == defaultPort ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(number)"
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
