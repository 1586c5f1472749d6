import Foundation
import HTJSON
import HTTPClient

/// A browser's side of the console over real HTTP, without a browser: it keeps the session
/// cookie, reads the CSRF token out of the page it is on and posts forms (redirects are not
/// followed, so each answer can be checked).
final class ConsoleClient {
    let d: TestDaemon
    var cookie: String?
    /// The CSRF token of the last page that carried one.
    var csrf: String?

    init(_ d: TestDaemon) { self.d = d }

    static func setPassword(_ d: TestDaemon, _ name: String, _ password: String, token: String? = nil) throws {
        let r = try d.request(.put, "/v1/staff/\(name)/password", token: token ?? d.adminToken, body: ["password": .string(password)])
        guard r.status == 204 else { throw TestFailure("set password for \(name): \(r.status) \(r.text)") }
    }

    /// Signs in and follows the redirect to the board; throws unless it worked.
    @discardableResult
    func signIn(_ name: String, _ password: String) throws -> TestDaemon.Response {
        let r = try post("/console/login", ["name": name, "password": password], csrf: false)
        guard r.status == 303, let set = r.headers["set-cookie"], set.hasPrefix("ht_session=") else {
            throw TestFailure("sign-in of \(name): \(r.status) \(r.headers) \(r.text.prefix(400))")
        }
        cookie = String(set.split(separator: ";")[0])
        return try get("/console/")
    }

    func get(_ path: String, headers: [(String, String)] = []) throws -> TestDaemon.Response {
        let r = try d.request(.get, path, contentType: nil, headers: (cookie.map { [("Cookie", $0)] } ?? []) + headers)
        if let token = Self.csrfToken(in: r.text) { csrf = token }
        return r
    }

    /// Posts a form; `csrf: true` adds the token of the current page.
    func post(_ path: String, _ fields: [String: String], csrf withToken: Bool = true,
              headers: [(String, String)] = []) throws -> TestDaemon.Response {
        var all = fields
        if withToken, let csrf { all["csrf"] = csrf }
        let body = all.sorted { $0.key < $1.key }.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }.joined(separator: "&")
        let r = try d.request(.post, path, raw: Array(body.utf8), contentType: "application/x-www-form-urlencoded",
                              headers: (cookie.map { [("Cookie", $0)] } ?? []) + headers)
        if let token = Self.csrfToken(in: r.text) { csrf = token }
        return r
    }

    static func encode(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
    }

    static func csrfToken(in html: String) -> String? {
        guard let r = html.range(of: "name=\"csrf\" value=\"") else { return nil }
        return String(html[r.upperBound...].prefix { $0 != "\"" })
    }
}
