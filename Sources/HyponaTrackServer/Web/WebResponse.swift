import HTML
import HTTPServer

/// The answers pages give, each with the headers every page carries (docs/product.md, "Staff
/// sign-in for the browser"): a strict CSP with no inline script or style, no sniffing, no
/// referrer, no caching.
enum WebResponse {
    static let contentSecurityPolicy =
        "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'"

    static func securityHeaders() -> HTTPHeaders {
        var h = HTTPHeaders()
        h.add(name: "Content-Security-Policy", value: contentSecurityPolicy)
        h.add(name: "X-Content-Type-Options", value: "nosniff")
        h.add(name: "Referrer-Policy", value: "no-referrer")
        h.add(name: "X-Frame-Options", value: "DENY")
        h.add(name: "Cache-Control", value: "no-store")
        return h
    }

    static func page(_ status: HTTPStatus, _ html: HTML) -> HTTPResponse {
        var h = securityHeaders()
        h.add(name: "Content-Type", value: "text/html; charset=utf-8")
        return HTTPResponse(status: status, headers: h, body: html.bytes)
    }

    /// 303 See Other: after a POST the browser GETs `location` (a resent form does not repeat it).
    static func redirect(_ location: String, cookies: [String] = []) -> HTTPResponse {
        var h = securityHeaders()
        h.add(name: "Location", value: location)
        for c in cookies { h.add(name: "Set-Cookie", value: c) }
        return HTTPResponse(status: .seeOther, headers: h)
    }

    /// A `Set-Cookie` value: `HttpOnly`, `SameSite=Strict`, `Secure` over TLS; `maxAge` nil is
    /// a browser-session cookie, 0 deletes it.
    static func cookie(_ name: String, _ value: String, path: String = "/", maxAge: Int? = nil, secure: Bool,
                       httpOnly: Bool = true) -> String {
        var parts = ["\(name)=\(value)", "Path=\(path)", "SameSite=Strict"]
        if httpOnly { parts.append("HttpOnly") }
        if secure { parts.append("Secure") }
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        return parts.joined(separator: "; ")
    }
}
