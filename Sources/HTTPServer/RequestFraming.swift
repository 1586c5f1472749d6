/// Whether a request's framing is unambiguous — which body it carries, which host it is for,
/// whose credentials it presents — checked when its headers are complete and before anything
/// reads the body.
///
/// libmicrohttpd 0.9.75 frames the body by the *first* `Transfer-Encoding` field if there is
/// one (chunked only if its value is exactly `chunked`, else "read until the connection
/// closes"), otherwise by the *first* `Content-Length` field, and ignores the rest
/// (`parse_connection_headers`, connection.c). A proxy in front may frame the same bytes by
/// another field — request smuggling — so RFC 9112 asks for a refusal and a closed connection:
///
/// - "If a message is received without Transfer-Encoding and with [...] multiple Content-Length
///   header fields having differing field-values [...] the server MUST respond with a 400 (Bad
///   Request) status code and then close the connection" (§6.3). Repeats of one value are
///   allowed (RFC 9110 §8.6).
/// - "A server MAY reject a request that contains both Content-Length and Transfer-Encoding
///   [...]. Regardless, the server MUST close the connection after responding to such a
///   request" (§6.1): refused.
/// - "If a Transfer-Encoding header field is present in a request and the chunked transfer
///   coding is not the final encoding, [...] the server MUST respond with the 400 (Bad
///   Request) status code and then close the connection" (§6.3); chunked at most once (§7).
/// - "A server that receives a request message with a transfer coding it does not understand
///   SHOULD respond with 501 (Not Implemented)" (§6.1): we understand chunked only.
/// - "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1 request
///   message that lacks a Host header field and to any request message that contains more
///   than one Host header field line" (§3.2). libmicrohttpd 0.9.75 accepts both.
/// - `Authorization` is a singleton field (RFC 9110 §11.6.2 defines one credentials value);
///   with two, a proxy and we could act on different credentials, so neither is chosen.
enum RequestFraming {
    struct Problem: Equatable {
        let status: HTTPStatus
        let code: String
        let message: String
    }

    static func problem(in headers: HTTPHeaders, httpVersion: String) -> Problem? {
        let hosts = headers.values(for: "Host").count
        if hosts > 1 || (hosts == 0 && httpVersion == "HTTP/1.1") {
            return Problem(status: .badRequest, code: "invalid_value",
                           message: hosts > 1 ? "The request has more than one Host header." : "An HTTP/1.1 request needs a Host header.")
        }
        if headers.values(for: "Authorization").count > 1 {
            return Problem(status: .badRequest, code: "invalid_value", message: "The request has more than one Authorization header.")
        }
        if headers.contains("Transfer-Encoding") {
            if headers.contains("Content-Length") {
                return Problem(status: .badRequest, code: "invalid_value",
                               message: "The request has both Content-Length and Transfer-Encoding.")
            }
            let fields = headers.values(for: "Transfer-Encoding")
            // Exactly what libmicrohttpd decodes as chunked (its comparison ignores case only).
            if fields.count == 1, fields[0].lowercased() == "chunked" { return nil }
            let codings = items(fields).filter { !$0.isEmpty }.map { coding in
                // A transfer coding may carry parameters (`name;param=value`); the name decides.
                String(coding.prefix { $0 != ";" }).trimmingBlanks().lowercased()
            }
            if codings.count > 1, codings.last == "chunked", codings.filter({ $0 == "chunked" }).count == 1 {
                return Problem(status: .notImplemented, code: "not_implemented",
                               message: "The only transfer coding supported is chunked.")
            }
            return Problem(status: .badRequest, code: "invalid_value",
                           message: "Transfer-Encoding must be chunked, once and alone.")
        }
        let lengths = headers.values(for: "Content-Length")
        // The usual request: one field, one value (no list to split).
        if lengths.count <= 1, !(lengths.first?.utf8.contains(UInt8(ascii: ",")) ?? false) { return nil }
        if Set(items(lengths)).count > 1 {
            return Problem(status: .badRequest, code: "invalid_value",
                           message: "The request has conflicting Content-Length values.")
        }
        return nil
    }

    /// The comma-separated list items of all the fields, blanks trimmed (RFC 9110 §5.6.1).
    private static func items(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map { String($0).trimmingBlanks() }
    }
}

private extension String {
    func trimmingBlanks() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
