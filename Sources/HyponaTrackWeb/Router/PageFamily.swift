import HTML
import HTTPServer
import HyponaTrackDomain

/// A family of pages under one path prefix (the console, the web check-in): how its callers sign
/// in, where a request without one is sent, and how its error pages look.
struct PageFamily: Sendable {
    /// `/console/`: the family serves this path and `/console`.
    let prefix: String
    /// Who signs in to it: staff sessions (`ht_session`) or patients (`ht_patient`).
    let callers: Callers
    /// Where a request without a signed-in caller is sent (`/console/login`).
    let signInPath: String
    /// Whether the sign-in page is told where to return (`?next=`, the console).
    let returnsAfterSignIn: Bool
    /// Draws an error page in the family's layout.
    let errorPage: @Sendable (PageFailure, WebRequest, WebSession?) -> HTML

    enum Callers: Sendable {
        case staff(SessionService)
        case patients(PatientWebSessions)
    }

    func serves(_ path: String) -> Bool {
        // As bytes: asked of every request, and `hasPrefix` on Strings compares Characters.
        path.utf8.starts(with: prefix.utf8) || path.utf8.elementsEqual(prefix.utf8.dropLast())
    }

    /// `/console/login?next=/console/patients/P-1`: back where the member was after signing in.
    func signInLocation(_ http: HTTPRequest) -> String {
        guard returnsAfterSignIn else { return signInPath }
        let back = http.rawPath + (http.rawQuery.map { "?" + $0 } ?? "")
        return signInPath + "?next=" + URLComponentEncoding.queryValue(back)
    }

    /// The family's page for `problem`, with the page headers and `Retry-After`.
    func page(_ problem: Problem, _ request: WebRequest, _ session: WebSession?) -> HTTPResponse {
        let failure = PageFailure(problem.status, problem.words(request.language), retryAfter: problem.api.retryAfter)
        var r = WebResponse.page(failure.status, errorPage(failure, request, session))
        if let after = failure.retryAfter { r.headers.add(name: "Retry-After", value: String(after)) }
        if let allow = problem.api.allow { r.headers.add(name: "Allow", value: allow.joined(separator: ", ")) }
        return r
    }

    /// Whether `next` is a page of ours to return to after signing in (never another site).
    static func isLocalPath(_ next: String, prefix: String) -> Bool {
        next.hasPrefix(prefix) && !next.hasPrefix("//") && !next.contains("\\") && !next.unicodeScalars.contains { $0.value < 0x20 }
    }
}
