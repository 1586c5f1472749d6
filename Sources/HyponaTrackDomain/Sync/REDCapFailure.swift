/// A failed REDCap request in two parts: our own account of it, safe for the journal, and
/// REDCap's text, which may quote the values of the rows sent. A validation error is CSV rows
/// `"record","field","value","message"` (docs/redcap.md, "Errors"), and the value may be free
/// text such as `withdrawal_reason`; a 5xx or an error page may echo anything. REDCap's text goes
/// only where staff see it, in the database (the dead letter, the halt reason, the last failure),
/// which `hyponatrack sync status` shows. The journal gets `journal(fields:)`.
struct REDCapFailure: Sendable, Equatable {
    /// The HTTP status; nil when no answer came (a timeout, a reset, TLS).
    var status: Int?
    /// Our words, or libcurl's for a transport failure. Never REDCap's text.
    var summary: String
    /// REDCap's text (a snippet of the answer's body), which may quote values. Empty if there was none.
    var quoted: String = ""

    /// The whole account, for the database.
    var message: String { quoted.isEmpty ? summary : "\(summary): \(quoted)" }

    /// What the journal may carry: the summary, the status, the length of REDCap's text, and the
    /// field names the text mentions. Only names in `fields` (the columns the request sent) are
    /// listed, so no word of a quoted value can pass unless it is itself one of those names.
    func journal(fields: Set<String> = []) -> [String: String] {
        var metadata = ["error": summary, "redcap_text_chars": String(quoted.count)]
        if let status { metadata["http_status"] = String(status) }
        let named = Self.names(in: quoted, among: fields)
        if !named.isEmpty { metadata["redcap_fields"] = named.joined(separator: ",") }
        return metadata
    }

    /// The words of `text` that are names in `fields`, each once, in the order they first appear.
    /// A REDCap field name is lower-case letters, digits and underscores.
    static func names(in text: String, among fields: Set<String>) -> [String] {
        guard !fields.isEmpty else { return [] }
        var seen: Set<String> = []
        var found: [String] = []
        let words = text.unicodeScalars.split { !(("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_") }
        for word in words {
            let name = String(String.UnicodeScalarView(word))
            if fields.contains(name), seen.insert(name).inserted { found.append(name) }
        }
        return found
    }
}
