import HTJSON
import HTTPClient

/// What a REDCap answer means for the sync (docs/redcap.md, "Errors": status codes are not enough).
enum REDCapOutcome: Sendable, Equatable {
    /// 200 with `{"count": N}`.
    case imported(count: Int)
    /// Network, timeouts, 5xx, maintenance 400s, a 200 error page: back off and retry.
    case transient(String)
    /// A validation 400: the whole request was rejected; REDCap's message names the rows.
    case rejected(String)
    /// Bad or revoked token, missing rights, IP ban, deleted project, TLS verification: stop
    /// everything until a person resumes the sync.
    case halt(String)

    /// Classifies an HTTP answer to an import.
    static func classify(status: Int, body: [UInt8]) -> REDCapOutcome {
        let text = String(decoding: body.prefix(4000), as: UTF8.self)
        let lower = text.lowercased()
        switch status {
        case 200:
            if case .object(let o)? = try? JSONParser.parse(body), case .number(let n)? = o["count"] { return .imported(count: Int(n)) }
            return .transient("200 without a count (an error page?): \(snippet(text))")
        case 400:
            // Validation errors come as CSV rows that quote record names and values: a name such as
            // "COMPLETED-7" must not read as a completed project (nor "Offline-3" as maintenance).
            if case .object(let o)? = try? JSONParser.parse(body), case .string(let message)? = o["error"],
               message.hasPrefix("\"") {
                return .rejected(message)
            }
            if lower.contains("offline") || lower.contains("maintenance") { return .transient("REDCap offline: \(snippet(text))") }
            if lower.contains("deleted") || lower.contains("completed") || lower.contains("archived") {
                return .halt("the project is deleted or completed: \(snippet(text))")
            }
            if case .object(let o)? = try? JSONParser.parse(body), case .string(let message)? = o["error"] {
                return .rejected(message)
            }
            return .rejected(snippet(text))
        case 401, 403: return .halt("REDCap refused the token or its rights (\(status)): \(snippet(text))")
        case 429: return .halt("REDCap banned this IP address (429): \(snippet(text)); it stays banned until a REDCap admin lifts it")
        case 404: return .halt("REDCap URL not found (404): check redcap.url")
        case 501: return .halt("REDCap answered 501 (wrong method): a bug in the sync")
        // Too large for REDCap or a proxy before it (nginx's default is 1 MB): the same request
        // would fail forever, so it is treated as a rejection, which splits the batch; a single
        // row that is still too large is dead-lettered with this message.
        case 413: return .rejected("the request was too large for REDCap or a proxy before it (413): \(snippet(text))")
        default:
            return .transient("REDCap answered \(status): \(snippet(text))")
        }
    }

    /// Classifies a transport failure: TLS verification stops the sync (a person must look);
    /// the rest is transient, a TLS connect failure too (docs/redcap.md: "timeouts, resets, DNS/TLS
    /// connect failures"): a handshake that was reset or timed out is `CURLE_SSL_CONNECT_ERROR`.
    static func classify(_ error: HTTPClientError) -> REDCapOutcome {
        if error.kind == .tlsFailure && error.curlCode == 35 { return .transient("TLS connect failure: \(error.detail)") }
        if error.kind == .tlsFailure { return .halt("TLS verification of the REDCap server failed: \(error.detail)") }
        if error.kind == .invalidURL || error.kind == .invalidRequest { return .halt("cannot send to REDCap: \(error.detail)") }
        return .transient("\(error.kind.rawValue): \(error.detail)")
    }

    static func snippet(_ s: String) -> String {
        let flat = s.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
        return flat.count > 300 ? String(flat.prefix(300)) + "…" : flat
    }
}
