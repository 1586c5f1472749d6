import Foundation
import HTML
import HTTPServer
import HyponaTrackDomain

/// Who may open a page.
public enum PageAccess: Sendable, Equatable {
    /// Anyone (the stylesheet, the language switch).
    case anonymous
    /// The two forms that sign someone in (`/console/login`, `/app/activate`): anyone may use
    /// them, but a post must carry the pre-session token of `SignInFormToken`, which showing the
    /// form sets up (`PageContext.signInFormToken`).
    case signIn
    /// A signed-in staff member with at least this capability (the API's roles).
    case staff(StaffCapability)
    /// Signing out of the console: a live staff session is ended, its CSRF token checked as on
    /// every form; without one (it expired, was ended elsewhere, or never existed) there is
    /// nothing left to end and the page still runs, so the browser clears its stale cookie.
    case staffSignOut
    /// A patient signed in to the web check-in (`ht_patient`).
    case patient
    /// Signing out of the web check-in, as `staffSignOut` for the console: with a live token the
    /// form's CSRF token is checked; with one that has expired or was revoked the page still
    /// runs, so the browser drops the dead cookie instead of keeping it behind a 403.
    case patientSignOut
}

/// What a page handler sees: the request, the path parameters, the session and (for a POST)
/// the form, already checked for its CSRF token.
public struct PageContext: Sendable {
    public let request: WebRequest
    public let parameters: [String: String]
    public let session: WebSession?
    public let form: HTTPQueryParameters
    /// The patient of a web check-in page.
    public var patient: PatientWebSession? = nil
    /// For a `.signIn` page: the token its form carries (`<input name="csrf">`).
    var signInFormToken: String? = nil

    public var language: Language { request.language }
    public func parameter(_ name: String) -> String { parameters[name] ?? "" }
    public func query(_ name: String) -> String? { request.http.query[name] }
    /// The form field, trimmed; nil when absent or blank.
    public func field(_ name: String) -> String? {
        guard let v = form[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !v.isEmpty else { return nil }
        return v
    }
    var actor: String { session?.actor ?? patient?.actor ?? "anonymous" }
}

/// One page or form target: method, path, who may use it, an optional per-address bucket
/// (the sign-in form shares the activation bucket) and its handler.
public struct PageRoute: Sendable {
    public let method: HTTPMethod
    public let path: PathTemplate
    public let access: PageAccess
    /// What the page touches (nil: undeclared, which `RouteTargetTests` refuses).
    public let touches: RouteTarget?
    public let limit: AnonymousLimit?
    public let handler: @Sendable (PageContext) throws -> HTTPResponse

    public init(_ method: HTTPMethod, _ template: String, access: PageAccess, touches: RouteTarget? = nil, limit: AnonymousLimit? = nil,
                handler: @escaping @Sendable (PageContext) throws -> HTTPResponse) {
        self.method = method
        path = PathTemplate(template)
        self.access = access
        self.touches = touches
        self.limit = limit
        self.handler = handler
    }
}

/// An error page's content, drawn by the page family's layout.
public struct PageFailure: Sendable, Error {
    public var status: HTTPStatus
    public var message: String
    public var retryAfter: Int?

    public init(_ status: HTTPStatus, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.retryAfter = retryAfter
    }

    /// 404 for an address no page answers, or one whose record number cannot be one
    /// (`/console/alerts/x/resolve`), in the page's `language`.
    static func notFound(_ path: String, _ language: Language) -> PageFailure {
        PageFailure(.notFound, language.s("There is no page \(path.prefix(200)).", "Die Seite \(path.prefix(200)) gibt es nicht."))
    }
}
