import CCurl
import CCurlShims

/// A libcurl call that failed, before the client adds the request's context
/// (method, redacted URL) and turns it into an ``HTTPClientError``.
struct CurlFailure: Error {
    /// The coarse kind; usually derived from `code`, set directly for the client's own aborts.
    var kind: HTTPClientError.Kind
    /// libcurl's result code, nil for failures the client detects itself.
    var code: CURLcode?
    /// libcurl's error buffer or `curl_easy_strerror` text, or the client's explanation.
    var detail: String

    /// A failure whose kind follows from libcurl's code.
    init(code: CURLcode, detail: String) {
        self.kind = CurlCodeClassification.kind(of: code)
        self.code = code
        self.detail = detail
    }

    /// A failure with an explicit kind (an abort the client caused, a request it refused).
    init(kind: HTTPClientError.Kind, code: CURLcode? = nil, detail: String) {
        self.kind = kind
        self.code = code
        self.detail = detail
    }

    /// `curl_easy_strerror`'s fixed text for `code`.
    static func text(of code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }
}
