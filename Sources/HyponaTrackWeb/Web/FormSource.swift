import Foundation
import HyponaTrackDomain

/// Whether a form post came from one of our own pages, read from what the browser says about
/// where it came from (`Sec-Fetch-Site`, Fetch Metadata; `Origin`, RFC 6454).
///
/// Refused: `Sec-Fetch-Site` other than `same-origin` (or `none`, a request the user started);
/// an `Origin` whose host is not ours; and `Origin: null` unless `Sec-Fetch-Site: same-origin`
/// vouches for it. The last one matters both ways: a sandboxed iframe on another site posts with
/// `Origin: null` (and `Sec-Fetch-Site: cross-site`), while chromium also sends `Origin: null` on
/// our own same-origin form posts, because every page carries `Referrer-Policy: no-referrer`.
/// A request with neither header (curl, an old client) passes here and is left to the form's
/// CSRF token.
enum FormSource {
    /// What to name in the refusal (the foreign origin, or the fetch-metadata value), or nil
    /// when the post may go on. `host` is the authority this request reached (`Host`, or the
    /// trusted proxy's `X-Forwarded-Host`).
    static func refusal(origin: String?, fetchSite: String?, host: String) -> String? {
        let site = fetchSite?.trimmingCharacters(in: .whitespaces).lowercased()
        if let site, site != "same-origin", site != "none" { return "Sec-Fetch-Site: \(site)" }
        guard let origin else { return nil }
        if origin == "null" { return site == "same-origin" ? nil : "Origin: null" }
        // Host names only: a proxy may pass `Host` without the port the browser used.
        func name(_ authority: Substring) -> Substring { authority.hasPrefix("[") ? authority.prefix { $0 != "]" } : authority.prefix { $0 != ":" } }
        guard let schemeEnd = origin.range(of: "://"),
              name(origin[schemeEnd.upperBound...]).lowercased() == name(host[...]).lowercased() else { return origin }
        return nil
    }
}
