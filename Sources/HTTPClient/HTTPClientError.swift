/// Why a request produced no response: the transport failed (DNS, connect, TLS, timeout),
/// the response broke a limit, or the request itself was unusable.
///
/// An HTTP status — 4xx and 5xx included — is never an error: it arrives as an
/// ``HTTPClientResponse``. The error carries libcurl's `CURLcode` and the text of its error
/// buffer (`CURLOPT_ERRORBUFFER`) so an operator can act on it, but never the request body
/// or a header value (tokens live there), and its URL has the query string, fragment and
/// user information removed (a URL may carry secrets in its query).
public struct HTTPClientError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, coarsely enough to decide on retries and on the message to show.
    public var kind: Kind
    /// libcurl's `CURLcode` (e.g. 7 for `CURLE_COULDNT_CONNECT`), or nil when the client
    /// refused the request before libcurl saw it.
    public var curlCode: Int?
    /// libcurl's error buffer text (e.g. "Failed to connect to 127.0.0.1 port 9: Connection
    /// refused"), or the client's own explanation; scrubbed of the URL query and header values.
    public var detail: String
    /// The request method, e.g. `POST`.
    public var method: String
    /// The request URL without query string, fragment or user information.
    public var redactedURL: String

    /// Builds an error; ``HTTPClient`` does this, tests and wrappers may too.
    public init(kind: Kind, curlCode: Int? = nil, detail: String, method: String, redactedURL: String) {
        self.kind = kind
        self.curlCode = curlCode
        self.detail = detail
        self.method = method
        self.redactedURL = redactedURL
    }

    /// Whether the same request may succeed if sent again later: network-level failures
    /// (resolve, connect, timeout, send, receive) yes; an invalid URL or request, a TLS
    /// failure (verification does not fix itself), an oversized response, cancellation no.
    ///
    /// A retried POST may reach the server twice; retry only requests that are idempotent
    /// (REDCap record imports with `overwriteBehavior=normal` are).
    public var isRetryable: Bool {
        switch kind {
        case .couldNotResolve, .couldNotConnect, .timedOut, .sendFailed, .receiveFailed: true
        case .tlsFailure, .responseTooLarge, .invalidURL, .invalidRequest, .cancelled, .other: false
        }
    }

    /// One line for a log or an operator: method, redacted URL, kind, libcurl's text and code.
    public var description: String {
        let code = curlCode.map { " (CURLcode \($0))" } ?? ""
        return "\(method) \(redactedURL) failed: \(kind.summary): \(detail)\(code)"
    }
}

extension HTTPClientError {
    /// `failure` with the request's method and URL, the URL's query and every header value
    /// scrubbed from its text.
    init(_ failure: CurlFailure, request: HTTPClientRequest) {
        let redaction = URLRedaction(url: request.url, headerValues: request.headers.map(\.value))
        self.init(kind: failure.kind, curlCode: failure.code.map { Int($0.rawValue) }, detail: redaction.scrub(failure.detail),
                  method: request.method.rawValue, redactedURL: redaction.redactedURL)
    }
}
