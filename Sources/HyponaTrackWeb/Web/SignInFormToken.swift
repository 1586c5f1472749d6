import Crypto
import HTML
import HyponaTrackDomain

/// The CSRF token of the two forms that run before anyone is signed in (`/console/login`,
/// `/app/activate`): a double-submit cookie. Showing the form sets `ht_form` (random,
/// `HttpOnly`, `SameSite=Strict`) unless the browser already holds one; the form carries a
/// token derived from it, and a post whose token does not match its cookie is refused.
///
/// Why: a page on another site could post its own study ID and code (or staff name and
/// password) and replace the victim's session with the attacker's, filing the victim's checks
/// under the attacker's study ID (issue 33, finding 1). Fetch metadata refuses that in current
/// browsers; this token also holds for a client that sends none, since another site can neither
/// read the cookie nor send it (`SameSite=Strict`).
struct SignInFormToken: Sendable, Equatable {
    static let cookieName = "ht_form"
    private static let prefix = "htf_"

    /// The cookie's value: `htf_` and 64 hex digits.
    let cookieValue: String

    /// What the form carries: SHA-256 over the cookie value (so the page never holds the cookie
    /// itself, and the cookie cannot be read back out of a cached page).
    var formToken: String { Crypto.hex(Crypto.sha256(Array(("sign-in-form:" + cookieValue).utf8))) }

    /// The token behind a cookie value, or nil for one we could not have set.
    init?(cookie value: String?) {
        guard let value, value.hasPrefix(Self.prefix), value.utf8.count == Self.prefix.utf8.count + 64,
              value.utf8.dropFirst(Self.prefix.utf8.count).allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
        else { return nil }
        cookieValue = value
    }

    private init(fresh value: String) { cookieValue = value }

    static func fresh() throws -> SignInFormToken { SignInFormToken(fresh: prefix + Crypto.hex(try Crypto.randomBytes(32))) }

    /// Whether a form's `csrf` field matches (constant time).
    func accepts(_ posted: String?) -> Bool {
        guard let posted else { return false }
        return Crypto.constantTimeEquals(Array(posted.utf8), Array(formToken.utf8))
    }
}


/// The hidden field every form posts its CSRF token in (a session's, or a sign-in form's
/// pre-session token); nothing without one.
enum CSRFField {
    static func html(_ token: String?) -> HTML {
        token.map { "<input type=\"hidden\" name=\"csrf\" value=\"\($0)\">" as HTML } ?? HTML()
    }
}
