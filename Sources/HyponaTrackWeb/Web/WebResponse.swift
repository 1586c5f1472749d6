import HTML
import HTTPServer
import HyponaTrackDomain

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

    /// `response` with each of the page headers it does not set itself (an asset keeps its
    /// `Cache-Control`, a download its own).
    static func withSecurityHeaders(_ response: HTTPResponse) -> HTTPResponse {
        var r = response
        for field in securityHeaders() where !r.headers.contains(field.name) { r.headers.add(name: field.name, value: field.value) }
        return r
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

    /// `GET …/language?to=de&back=PATH`: the `ht_lang` cookie, then back to `back` when it is a
    /// page of this family (`prefix`), else to `home`.
    static func languageSwitch(_ ctx: PageContext, prefix: String, home: String) -> HTTPResponse {
        let to = ctx.query("to").flatMap(Language.init(rawValue:)) ?? .en
        let back = ctx.query("back").flatMap { PageFamily.isLocalPath($0, prefix: prefix) ? $0 : nil } ?? home
        return redirect(back, cookies: [cookie("ht_lang", to.rawValue, maxAge: 365 * 86400, secure: ctx.request.isSecure)])
    }

    /// A static file: the page headers, cached (for a year when its name carries its hash).
    static func asset(_ text: String, type: String, immutable: Bool) -> HTTPResponse {
        var h = HTTPHeaders(securityHeaders().filter { $0.name != "Cache-Control" })
        h.add(name: "Content-Type", value: type)
        h.add(name: "Cache-Control", value: immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600")
        return HTTPResponse(status: .ok, headers: h, body: Array(text.utf8))
    }

    /// A `Set-Cookie` value: `HttpOnly`, `SameSite=Strict` (the single sign-on's pre-session:
    /// `Lax`), `Secure` over TLS; `maxAge` nil is a browser-session cookie, 0 deletes it.
    static func cookie(_ name: String, _ value: String, path: String = "/", maxAge: Int? = nil, secure: Bool,
                       httpOnly: Bool = true, sameSite: String = "Strict") -> String {
        var parts = ["\(name)=\(value)", "Path=\(path)", "SameSite=\(sameSite)"]
        if httpOnly { parts.append("HttpOnly") }
        if secure { parts.append("Secure") }
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        return parts.joined(separator: "; ")
    }
}
