import Foundation
import HTJSON
import HTTPClient

/// A browser's side of the console over real HTTP, without a browser: it keeps the session
/// cookie, reads the CSRF token out of the page it is on and posts forms (redirects are not
/// followed, so each answer can be checked).
final class ConsoleClient {
    let d: TestDaemon
    var cookie: String?
    /// The sign-in forms' pre-session cookie (`ht_form=…`), kept from the answer that set it.
    var formCookie: String?
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
        let r = try postSignIn("/console/login", ["name": name, "password": password])
        guard r.status == 303, let set = r.headers["set-cookie"], set.hasPrefix("ht_session=") else {
            throw TestFailure("sign-in of \(name): \(r.status) \(r.headers) \(r.text.prefix(400))")
        }
        cookie = String(set.split(separator: ";")[0])
        return try get("/console/")
    }

    func get(_ path: String, headers: [(String, String)] = []) throws -> TestDaemon.Response {
        let r = try d.request(.get, path, contentType: nil, headers: cookieHeader + headers)
        keep(r)
        return r
    }

    /// Posts a sign-in form (`/console/login`, `/app/activate`) as a browser does: shows the
    /// form first (its pre-session cookie, set once, and its token), then posts with that token.
    func postSignIn(_ path: String, _ fields: [String: String], headers: [(String, String)] = []) throws -> TestDaemon.Response {
        keep(try d.request(.get, path, contentType: nil, headers: cookieHeader))
        return try post(path, fields, csrf: true, headers: headers)
    }

    /// The `Cookie` header: the session's (or patient's) cookie and the sign-in forms' one.
    var cookieHeader: [(String, String)] {
        let all = [cookie, formCookie].compactMap { $0 }
        return all.isEmpty ? [] : [("Cookie", all.joined(separator: "; "))]
    }

    /// Keeps the page's CSRF token and a pre-session cookie the answer set.
    private func keep(_ r: TestDaemon.Response) {
        if let token = Self.csrfToken(in: r.text) { csrf = token }
        for set in r.headers.values(for: "set-cookie") where set.hasPrefix("ht_form=") {
            formCookie = String(set.split(separator: ";")[0])
        }
    }

    /// Posts a form; `csrf: true` adds the token of the current page.
    func post(_ path: String, _ fields: [String: String], csrf withToken: Bool = true,
              headers: [(String, String)] = []) throws -> TestDaemon.Response {
        var all = fields
        if withToken, let csrf { all["csrf"] = csrf }
        let body = all.sorted { $0.key < $1.key }.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }.joined(separator: "&")
        let r = try d.request(.post, path, raw: Array(body.utf8), contentType: "application/x-www-form-urlencoded",
                              headers: cookieHeader + headers)
        keep(r)
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
