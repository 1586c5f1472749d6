import Crypto

/// Standard Webhooks signatures (https://www.standardwebhooks.com, docs/operations.md, "Webhooks"):
/// `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with the
/// base64-decoded part of a `whsec_<base64>` secret.
public enum WebhookSignature {
    /// The secret's prefix: "whsec_" followed by the base64 key.
    public static let secretPrefix = "whsec_"

    /// The HMAC key of a `whsec_<base64>` secret (surrounding whitespace, e.g. the newline of
    /// a secret file, is ignored), or nil when the prefix is missing, the rest is not base64,
    /// or the key is shorter than 16 bytes.
    public static func decodeSecret(_ secret: String) -> [UInt8]? {
        let trimmed = trimmed(secret)
        guard trimmed.hasPrefix(secretPrefix) else { return nil }
        guard let key = Base64.standard.decode(String(trimmed.dropFirst(secretPrefix.count))), key.count >= 16 else {
            return nil
        }
        return key
    }

    /// A new secret: `whsec_` and the base64 of 32 CSPRNG bytes (the spec asks for 24–64).
    public static func generateSecret() throws -> String {
        secretPrefix + Base64.standard.encode(try Crypto.randomBytes(32))
    }

    /// The `webhook-signature` value for one attempt: `v1,` and the base64 HMAC-SHA256 of
    /// `"{id}.{timestamp}.{body}"` (the body exactly as sent).
    public static func sign(key: [UInt8], id: String, timestamp: Int64, body: [UInt8]) -> String {
        "v1," + Base64.standard.encode(mac(key: key, id: id, timestamp: timestamp, body: body))
    }

    /// Whether any `v1,…` entry of a space-separated `webhook-signature` header (several
    /// during key rotation) is the signature of this id, timestamp and body. Entries of other
    /// versions are skipped; each comparison takes constant time. The timestamp's freshness
    /// is the receiver's own check.
    public static func verify(key: [UInt8], id: String, timestamp: Int64, body: [UInt8], signatureHeader: String) -> Bool {
        let expected = mac(key: key, id: id, timestamp: timestamp, body: body)
        var matched = false
        for entry in signatureHeader.split(separator: " ", omittingEmptySubsequences: true) {
            guard entry.hasPrefix("v1,"), let candidate = Base64.standard.decode(String(entry.dropFirst(3))) else { continue }
            // No early exit: every entry is compared, so timing does not reveal which matched.
            if Crypto.constantTimeEquals(candidate, expected) { matched = true }
        }
        return matched
    }

    /// `text` without leading and trailing spaces, tabs, CR and LF.
    private static func trimmed(_ text: String) -> String {
        var bytes = Substring(text).utf8[...]
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        while let first = bytes.first, isSpace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, isSpace(last) { bytes = bytes.dropLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func mac(key: [UInt8], id: String, timestamp: Int64, body: [UInt8]) -> [UInt8] {
        Crypto.hmacSHA256(key: key, message: Array("\(id).\(timestamp).".utf8) + body)
    }
}
