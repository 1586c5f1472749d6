/// Makes a URL and text that may quote it safe for error messages and logs.
///
/// A URL's query may hold a token, its user information a password; both, and the fragment,
/// are cut. Plain string work, no parsing that could fail: it must also handle URLs libcurl
/// rejected as malformed.
struct URLRedaction: Sendable {
    /// The URL without user information, query and fragment.
    let redactedURL: String
    /// Substrings to blank out of any text derived from the request (libcurl's messages).
    private let secrets: [String]

    /// - Parameters:
    ///   - url: The request URL.
    ///   - headerValues: The request's header values; blanked out too, in case any text
    ///     repeats one.
    init(url: String, headerValues: [String]) {
        var secrets: [String] = []
        var rest = Substring(url)
        // Query and fragment: everything from the first "?" or "#".
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            secrets.append(String(rest[rest.index(after: cut)...]))
            rest = rest[..<cut]
        }
        // User information: between "://" and the last "@" before the path.
        if let schemeEnd = rest.firstRange(of: "://") {
            let authorityStart = schemeEnd.upperBound
            let authorityEnd = rest[authorityStart...].firstIndex(of: "/") ?? rest.endIndex
            if let at = rest[authorityStart..<authorityEnd].lastIndex(of: "@") {
                secrets.append(String(rest[authorityStart..<at]))
                rest = rest[..<authorityStart] + rest[rest.index(after: at)...]
            }
        }
        secrets += headerValues
        self.redactedURL = String(rest)
        // Very short values ("1", "gzip") are no secrets, and blanking them would mangle
        // the message; longest first so a value containing another is blanked whole.
        self.secrets = secrets.filter { $0.count >= 5 }.sorted { $0.count > $1.count }
    }

    /// `text` with the URL's query, fragment, user information and the header values
    /// replaced by `<redacted>`.
    func scrub(_ text: String) -> String {
        secrets.reduce(text) { $0.replacing($1, with: "<redacted>") }
    }
}
