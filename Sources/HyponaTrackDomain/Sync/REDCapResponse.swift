import HTJSON
import HTTPClient

/// What a REDCap answer means for the sync (docs/redcap.md, "Errors": status codes are not enough).
/// Each failure keeps REDCap's text apart from our account of it (``REDCapFailure``): the text may
/// quote the rows' values and must not reach the journal.
enum REDCapOutcome: Sendable, Equatable {
    /// 200 with `{"count": N}`.
    case imported(count: Int)
    /// Network, timeouts, 5xx, maintenance 400s, a 200 error page: back off and retry.
    case transient(REDCapFailure)
    /// A validation 400: the whole request was rejected; REDCap's text names the rows.
    case rejected(REDCapFailure)
    /// Bad or revoked token, missing rights, IP ban, deleted project, TLS verification: stop
    /// everything until a person resumes the sync.
    case halt(REDCapFailure)

    /// Classifies an HTTP answer to an import.
    static func classify(status: Int, body: [UInt8]) -> REDCapOutcome {
        let text = String(decoding: body.prefix(4000), as: UTF8.self)
        let lower = text.lowercased()
        func failure(_ summary: String, _ quoted: String? = nil) -> REDCapFailure {
            REDCapFailure(status: status, summary: summary, quoted: quoted ?? snippet(text))
        }
        switch status {
        case 200:
            if case .number(let n)? = REDCapObject.parse(body)?["count"] { return .imported(count: Int(n)) }
            return .transient(failure("200 without a count (an error page?)"))
        case 400:
            // Validation errors come as CSV rows that quote record names and values: a name such as
            // "COMPLETED-7" must not read as a completed project (nor "Offline-3" as maintenance).
            if case .string(let message)? = REDCapObject.parse(body)?["error"], message.hasPrefix("\"") {
                return .rejected(failure("REDCap rejected the request (400)", message))
            }
            if lower.contains("offline") || lower.contains("maintenance") { return .transient(failure("REDCap offline (400)")) }
            if lower.contains("deleted") || lower.contains("completed") || lower.contains("archived") {
                return .halt(failure("the project is deleted or completed (400)"))
            }
            if case .string(let message)? = REDCapObject.parse(body)?["error"] {
                return .rejected(failure("REDCap rejected the request (400)", message))
            }
            return .rejected(failure("REDCap rejected the request (400)"))
        case 401, 403: return .halt(failure("REDCap refused the token or its rights (\(status))"))
        case 429:
            return .halt(failure("REDCap banned this IP address (429); it stays banned until a REDCap admin lifts it"))
        case 404: return .halt(failure("REDCap URL not found (404): check redcap.url", ""))
        case 501: return .halt(failure("REDCap answered 501 (wrong method): a bug in the sync", ""))
        // Too large for REDCap or a proxy before it (nginx's default is 1 MB): the same request
        // would fail forever, so it is treated as a rejection, which splits the batch; a single
        // row that is still too large is dead-lettered with this message.
        case 413: return .rejected(failure("the request was too large for REDCap or a proxy before it (413)"))
        default:
            return .transient(failure("REDCap answered \(status)"))
        }
    }

    /// Classifies a transport failure: TLS verification stops the sync (a person must look);
    /// the rest is transient, a TLS connect failure too (docs/redcap.md: "timeouts, resets, DNS/TLS
    /// connect failures"): a handshake that was reset or timed out is `CURLE_SSL_CONNECT_ERROR`.
    /// libcurl's text is ours (no byte of an answer), so it goes in the summary.
    static func classify(_ error: HTTPClientError) -> REDCapOutcome {
        func failure(_ summary: String) -> REDCapFailure { REDCapFailure(status: nil, summary: summary) }
        if error.kind == .tlsFailure && error.curlCode == 35 { return .transient(failure("TLS connect failure: \(error.detail)")) }
        if error.kind == .tlsFailure { return .halt(failure("TLS verification of the REDCap server failed: \(error.detail)")) }
        if error.kind == .invalidURL || error.kind == .invalidRequest { return .halt(failure("cannot send to REDCap: \(error.detail)")) }
        return .transient(failure("\(error.kind.rawValue): \(error.detail)"))
    }

    static func snippet(_ s: String) -> String {
        let flat = s.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
        return flat.count > 300 ? String(flat.prefix(300)) + "…" : flat
    }
}
