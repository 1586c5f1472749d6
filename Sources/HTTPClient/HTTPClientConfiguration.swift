/// Settings shared by every request of one ``HTTPClient``.
///
/// What cannot be configured, on purpose: TLS peer and host verification are always on
/// (`CURLOPT_SSL_VERIFYPEER=1`, `CURLOPT_SSL_VERIFYHOST=2`), TLS is at least 1.2, only
/// `http` and `https` URLs are accepted, and there is always a timeout.
public struct HTTPClientConfiguration: Sendable {
    /// A PEM file of CA certificates to trust *instead of* the system store
    /// (`CURLOPT_CAINFO`, with `CURLOPT_CAPATH` cleared), e.g. a hospital's private CA.
    /// Nil trusts the system CAs (Debian: `/etc/ssl/certs/ca-certificates.crt`).
    public var caFile: String?
    /// The `User-Agent` sent unless a request sets its own.
    public var userAgent: String
    /// Default time limit for a whole transfer (`CURLOPT_TIMEOUT_MS`); a request may
    /// override it. Never "none": a zero or negative value is treated as 1 ms.
    public var timeout: Duration
    /// Default time limit for connecting, TLS handshake included
    /// (`CURLOPT_CONNECTTIMEOUT_MS`); a request may override it.
    public var connectTimeout: Duration
    /// Whether to follow 3xx redirects. Off by default and it should stay off for webhooks
    /// and REDCap, where a redirect means a misconfigured endpoint: the 3xx is returned as the
    /// response. When on, at most ``maxRedirects`` are followed, and an `https` request
    /// only to `https` URLs. Beware: libcurl keeps only `Authorization` and `Cookie` from
    /// other hosts; every other custom header "is sent in the subsequent request" to
    /// wherever the redirect points (https://curl.se/libcurl/c/CURLOPT_HTTPHEADER.html).
    public var followRedirects: Bool
    /// Redirects followed at most when ``followRedirects`` is on.
    public var maxRedirects: Int
    /// The largest response body accepted; a longer one aborts the transfer with
    /// ``HTTPClientError/Kind/responseTooLarge``. Counted after content decoding.
    public var maxResponseBytes: Int
    /// The largest response header section accepted (all header lines of one response).
    public var maxResponseHeaderBytes: Int
    /// An explicit proxy URL (`CURLOPT_PROXY`, e.g. `http://proxy.example:3128`). Nil means
    /// **no proxy**, whatever the environment says: libcurl otherwise honours `http_proxy`,
    /// `https_proxy` and `ALL_PROXY`, and an inherited variable could route patient data
    /// through an unknown host. "Setting the proxy string to "" (an empty string) will
    /// explicitly disable the use of a proxy, even if there is an environment variable set
    /// for it." (https://curl.se/libcurl/c/CURLOPT_PROXY.html)
    public var proxy: String?
    /// Whether to ask for compressed responses (`CURLOPT_ACCEPT_ENCODING ""`: every
    /// encoding libcurl can decode). ``maxResponseBytes`` still bounds the decoded size.
    public var acceptCompressedResponses: Bool
    /// Idle easy handles kept for reuse (each keeps its connections open for the next
    /// request to the same server).
    public var maxIdleHandles: Int
    /// HTTP/2 over TLS (`CURL_HTTP_VERSION_2TLS`: "attempt HTTP/2 over TLS (HTTPS) only", falling
    /// back to HTTP/1.1 when the server does not offer h2 in ALPN). Apple's push service
    /// speaks only HTTP/2.
    public var http2 = false

    /// Settings with safe defaults: system CAs, 30 s total and 10 s connect timeouts, no
    /// redirects, 16 MiB body cap, no proxy.
    public init(
        caFile: String? = nil,
        userAgent: String = "HyponaTrack",
        timeout: Duration = .seconds(30),
        connectTimeout: Duration = .seconds(10),
        followRedirects: Bool = false,
        maxRedirects: Int = 3,
        maxResponseBytes: Int = 16 * 1024 * 1024,
        maxResponseHeaderBytes: Int = 64 * 1024,
        proxy: String? = nil,
        acceptCompressedResponses: Bool = false,
        maxIdleHandles: Int = 4
    ) {
        self.caFile = caFile
        self.userAgent = userAgent
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.followRedirects = followRedirects
        self.maxRedirects = maxRedirects
        self.maxResponseBytes = maxResponseBytes
        self.maxResponseHeaderBytes = maxResponseHeaderBytes
        self.proxy = proxy
        self.acceptCompressedResponses = acceptCompressedResponses
        self.maxIdleHandles = maxIdleHandles
    }
}
