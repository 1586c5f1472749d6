/// One HTTP request for ``HTTPClient/send(_:)``: a plain value, safe to build on one thread
/// and send from another.
///
/// ```swift
/// let request = HTTPClientRequest.formURLEncoded(
///     url: "https://redcap.example.org/api/",
///     fields: [("token", token), ("content", "record"), ("format", "json")])
/// let response = try client.send(request)
/// ```
public struct HTTPClientRequest: Sendable {
    /// The request method.
    public var method: Method
    /// An absolute `http://` or `https://` URL. Put secrets in headers or the body, not in the
    /// query string; errors omit the query anyway.
    public var url: String
    /// Header fields, sent in order after the ones libcurl adds (`Host`, `Content-Length`).
    /// A field set here replaces libcurl's own of the same name (e.g. `User-Agent`,
    /// `Accept`). Names must be RFC 9110 tokens and values must not contain CR, LF or NUL.
    public var headers: HTTPHeaders
    /// The body; nil sends none. `POST`, `PUT` and `PATCH` always carry a body
    /// (`Content-Length: 0` when nil); `GET` and `HEAD` must not have one.
    public var body: [UInt8]?
    /// A file sent as the body instead of `body`, read while it is sent (large uploads); a
    /// file that cannot be opened fails the request before anything is sent.
    public var bodyFile: String? = nil
    /// The whole transfer's time limit, overriding the client's
    /// ``HTTPClientConfiguration/timeout``.
    public var timeout: Duration?
    /// The connection phase's time limit (DNS, TCP, TLS), overriding the client's
    /// ``HTTPClientConfiguration/connectTimeout``.
    public var connectTimeout: Duration?
    /// Where to connect for the URL's host instead of asking DNS (`CURLOPT_RESOLVE`): a caller
    /// that checked the addresses a name resolves to pins the connection to them, so a second
    /// lookup by libcurl cannot lead elsewhere (DNS rebinding). TLS still verifies the name.
    public var resolvedHost: ResolvedHost? = nil

    /// Builds a request.
    public init(
        method: Method = .get,
        url: String,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8]? = nil,
        timeout: Duration? = nil,
        connectTimeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.connectTimeout = connectTimeout
    }
}

/// A host name, its port and the numeric addresses to use for it (``HTTPClientRequest/resolvedHost``).
public struct ResolvedHost: Sendable, Equatable {
    /// The name as the URL writes it (an IPv6 literal without brackets).
    public var host: String
    public var port: Int
    /// IPv4 (`192.0.2.1`) or IPv6 (`2001:db8::1`) addresses, in the order to try.
    public var addresses: [String]

    public init(host: String, port: Int, addresses: [String]) {
        self.host = host
        self.port = port
        self.addresses = addresses
    }
}
