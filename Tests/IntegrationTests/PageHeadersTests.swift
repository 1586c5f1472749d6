import Foundation
import Testing
import HTJSON

/// What the console and the web check-in answer carries the page headers (docs/product.md,
/// "Staff sign-in for the browser") — the answers the HTTP server gives before a page handler
/// runs, and the console's downloads, as well as the pages.
@Suite struct PageHeadersTests {
    static func expectPageHeaders(_ r: TestDaemon.Response, _ what: String, cache: Bool = true) {
        let csp = r.headers["content-security-policy"] ?? ""
        #expect(csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"), "\(what): CSP \(csp)")
        #expect(r.headers["x-content-type-options"] == "nosniff", "\(what): nosniff")
        #expect(r.headers["referrer-policy"] == "no-referrer", "\(what): Referrer-Policy")
        if cache { #expect(r.headers["cache-control"] == "no-store", "\(what): Cache-Control") }
    }

    static func expectErrorPage(_ r: TestDaemon.Response, _ status: Int, _ what: String, words: String) {
        #expect(r.status == status, "\(what): \(r.status) \(r.text.prefix(200))")
        #expect((r.headers["content-type"] ?? "").hasPrefix("text/html"), "\(what): \(r.headers["content-type"] ?? "-")")
        #expect(r.text.hasPrefix("<!DOCTYPE html>") && r.text.contains(words), "\(what): a readable page: \(r.text.prefix(300))")
        expectPageHeaders(r, what)
    }

    @Test func anUnreadablePathUnderTheConsoleOrTheAppIsAPageWithThePageHeaders() throws {
        let d = try TestDaemon()
        for path in ["/console/patients/%ff", "/console/%C3%28", "/app/%ff"] {
            Self.expectErrorPage(try d.request(.get, path, contentType: nil), 400, path, words: "cannot be read")
        }
        let german = try d.request(.get, "/app/%ff", contentType: nil, headers: [("Accept-Language", "de")])
        #expect(german.text.contains("<html lang=\"de\"") && german.text.contains("nicht lesbar"), "in the page's language")
        let api = try d.request(.get, "/v1/patients/%ff", token: d.adminToken, contentType: nil)
        #expect(api.status == 400 && api.errorCode == "invalid_value", "the API keeps its JSON envelope: \(api.text)")
    }

    @Test func aFormOverTheBodyLimitIsAPageWithThePageHeaders() throws {
        let d = try TestDaemon()
        let big = Array(("name=-ward&password=" + String(repeating: "a", count: 300_000)).utf8)
        for path in ["/console/login", "/app/activate"] {
            let r = try d.request(.post, path, raw: big, contentType: "application/x-www-form-urlencoded")
            Self.expectErrorPage(r, 413, path, words: "larger than the server accepts")
        }
        let api = try d.request(.post, "/v1/activate", raw: big, contentType: "application/json")
        #expect(api.status == 413 && api.errorCode == "too_large", "the API keeps its JSON envelope: \(api.text.prefix(200))")
    }

    @Test func theConsoleDownloadsCarryThePageHeaders() throws {
        let d = try TestDaemon()
        _ = try Study.staff(d, "-ward", role: "nurse")
        try ConsoleClient.setPassword(d, "-ward", ConsoleTests.password)
        _ = try Study.enrollAndActivate(d, "HDR-1")
        let c = ConsoleClient(d)
        try c.signIn("-ward", ConsoleTests.password)
        for path in ["/console/export/days.csv", "/console/export/alerts.csv", "/console/patients/HDR-1/report.pdf"] {
            let r = try c.get(path)
            #expect(r.status == 200 && (r.headers["content-disposition"] ?? "").hasPrefix("attachment"), "\(path): \(r.status)")
            Self.expectPageHeaders(r, path)
        }
    }
}
