/// Parsing of the HTTP `Authorization` request header.
public enum AuthorizationHeader {
    /// The token of a `Bearer` credential (RFC 6750 §2.1: `Bearer <token>`), or nil when the
    /// header is absent, uses another scheme, or has no token or more than one word after the
    /// scheme. The scheme name is case-insensitive ("auth-scheme is case-insensitive",
    /// RFC 9110 §11.1); the token is returned exactly as sent.
    public static func bearerToken(_ value: String?) -> String? {
        guard let value else { return nil }
        let parts = value.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }
}
