/// Parsing of the HTTP `Authorization` request header.
public enum AuthorizationHeader {
    /// The token of a `Bearer` credential (RFC 6750 §2.1: `Bearer <token>`), or nil when the
    /// header is absent, uses another scheme, or has no token or more than one word after the
    /// scheme. The scheme name is case-insensitive ("auth-scheme is case-insensitive",
    /// RFC 9110 §11.1); the token is returned exactly as sent.
    ///
    /// Read as bytes (words are separated by spaces and tabs): it runs on every request, and
    /// splitting by `Character` cost more than the rest of the token check.
    public static func bearerToken(_ value: String?) -> String? {
        guard var value else { return nil }
        return value.withUTF8 { bytes -> String? in
            func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
            var words: [Range<Int>] = []
            var i = 0
            while i < bytes.count {
                while i < bytes.count, isBlank(bytes[i]) { i += 1 }
                let start = i
                while i < bytes.count, !isBlank(bytes[i]) { i += 1 }
                if start < i {
                    guard words.count < 2 else { return nil }
                    words.append(start..<i)
                }
            }
            guard words.count == 2, words[0].count == 6 else { return nil }
            let scheme = Array("bearer".utf8)
            for (offset, index) in words[0].enumerated() where bytes[index] | 0x20 != scheme[offset] { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[words[1]]), as: UTF8.self)
        }
    }
}
