/// A complete HTTP response: any status, 4xx and 5xx included (those are answers, not
/// transport errors), with its headers and the whole body.
public struct HTTPClientResponse: Sendable {
    /// The status code, e.g. 200, 302, 404.
    public var status: Int
    /// The final response's header fields (not those of a `100 Continue`); lookup ignores case.
    public var headers: HTTPHeaders
    /// The body bytes (empty for `HEAD` and 204/304).
    public var body: [UInt8]
    /// The whole transfer's duration as libcurl measured it (`CURLINFO_TOTAL_TIME`: from
    /// the start "until the transfer is complete", name resolution and TLS included).
    public var totalTime: Duration

    /// Builds a response; the client does this, tests may too.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
                totalTime: Duration = .zero) {
        self.status = status
        self.headers = headers
        self.body = body
        self.totalTime = totalTime
    }

    /// The body decoded as UTF-8, or nil when it is not valid UTF-8.
    public var bodyText: String? { String(validating: body, as: UTF8.self) }

    /// Whether the status is 2xx — the only success for webhooks and the REDCap API.
    public var isSuccess: Bool { (200...299).contains(status) }
}
