/// Checks an SMTP transfer before libcurl sees it. libcurl writes the addresses into the
/// command lines (`MAIL FROM:<…>`, `RCPT TO:<…>`), so a CR or LF in one would inject an SMTP
/// command; a wrong scheme could make it speak another protocol.
enum SMTPValidation {
    static func validate(url: String, from: String, to: [String], message: [UInt8]) throws(CurlFailure) {
        let lowered = String(decoding: url.utf8.prefix(8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        guard lowered.hasPrefix("smtps://") || lowered.hasPrefix("smtp://") else {
            throw CurlFailure(kind: .invalidURL, detail: "the URL must start with smtps:// or smtp://")
        }
        guard !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw CurlFailure(kind: .invalidURL, detail: "the URL contains a space or a control character")
        }
        try validateAddress(from, role: "sender")
        guard !to.isEmpty else {
            throw CurlFailure(kind: .invalidRequest, detail: "no recipient")
        }
        for address in to { try validateAddress(address, role: "recipient") }
        guard !message.isEmpty else {
            throw CurlFailure(kind: .invalidRequest, detail: "the message is empty")
        }
    }

    /// A bare `local@domain` address: one "@" with text on both sides, at most 254 bytes
    /// (RFC 5321 §4.5.3.1.3), printable ASCII or UTF-8 without spaces, angle brackets or
    /// commas. The error names the role, not the address.
    static func validateAddress(_ address: String, role: String) throws(CurlFailure) {
        let bytes = Array(address.utf8)
        let ats = bytes.indices.filter { bytes[$0] == UInt8(ascii: "@") }
        guard bytes.count <= 254, ats.count == 1, let at = ats.first, at > 0, at < bytes.count - 1,
              !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
                  || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") })
        else {
            throw CurlFailure(kind: .invalidRequest, detail: "the \(role) is not a plain e-mail address (local@domain)")
        }
    }
}
