/// Checks a request before libcurl sees it, for mistakes libcurl would not catch or would
/// turn into something else on the wire.
enum HTTPRequestValidation {
    static func validate(_ request: HTTPClientRequest) throws(CurlFailure) {
        try validateURL(request.url)
        if request.method.forbidsBody, request.body != nil {
            throw CurlFailure(kind: .invalidRequest, detail: "a \(request.method) request cannot carry a body")
        }
    }

    /// An explicit `http://` or `https://` scheme (libcurl would otherwise guess one for a
    /// bare host name) and no control characters or spaces: a NUL would silently cut the C
    /// string, CR/LF could inject into the request line.
    private static func validateURL(_ url: String) throws(CurlFailure) {
        let lowered = url.utf8.prefix(8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        guard lowered.starts(with: "http://".utf8) || lowered.starts(with: "https://".utf8) else {
            throw CurlFailure(kind: .invalidURL, detail: "the URL must start with http:// or https://")
        }
        guard !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw CurlFailure(kind: .invalidURL, detail: "the URL contains a space or a control character")
        }
    }
}
