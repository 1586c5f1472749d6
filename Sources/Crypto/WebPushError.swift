/// What went wrong preparing a Web Push message: the subscription a browser registered, the
/// payload, or the VAPID settings. Never holds key material.
public enum WebPushError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The endpoint is not an `https://` URL with a host (for a VAPID audience: not an http(s)
    /// URL); `reason` says which part is wrong.
    case invalidEndpoint(reason: String)
    /// `p256dh` is not base64url of an uncompressed point on P-256; `reason` says why not.
    case invalidPublicKey(reason: String)
    /// `auth` is not base64url of 16 bytes.
    case invalidAuthSecret
    /// Payload and padding over what one 4096-byte record carries (`limit`).
    case payloadTooLarge(bytes: Int, limit: Int)
    /// The VAPID `sub` is neither a `mailto:` address nor an `https:` URL.
    case invalidSubject
    /// A VAPID token lifetime outside 1 s … 24 h.
    case invalidLifetime(seconds: Int64)
    /// libcrypto failed.
    case libcrypto(CryptoError)

    public var description: String {
        switch self {
        case .invalidEndpoint(let reason): "invalid push endpoint: \(reason)"
        case .invalidPublicKey(let reason): "invalid subscription key: \(reason)"
        case .invalidAuthSecret: "invalid subscription auth secret: it must be base64url of 16 bytes"
        case .payloadTooLarge(let bytes, let limit): "push payload too large: \(bytes) bytes (at most \(limit))"
        case .invalidSubject: "the VAPID subject must be a mailto: address or an https: URL"
        case .invalidLifetime(let seconds): "a VAPID token lives 1 s to 24 h, not \(seconds) s"
        case .libcrypto(let error): error.description
        }
    }

    /// Runs `body`, reporting a libcrypto failure as `.libcrypto`.
    static func wrapping<Result>(_ body: () throws(CryptoError) -> Result) throws(WebPushError) -> Result {
        do {
            return try body()
        } catch {
            throw .libcrypto(error)
        }
    }
}
