/// One complete HTTP request as the handler sees it: headers and the whole body, already
/// received and size-checked by the server.
public struct HTTPRequest: Sendable {
    /// The method token, passed through unchanged (routing decides about unknown ones).
    public var method: HTTPMethod
    /// The path, percent-decoded, without the query string, e.g. `/api/v1/patients/P 01`.
    public var path: String
    /// The path as sent on the request line, still percent-encoded, without the query.
    public var rawPath: String
    /// The query string as sent (without `?`), nil when the target had none.
    public var rawQuery: String?
    /// Query parameters, percent-decoded, repeated names kept in order.
    public var query: HTTPQueryParameters
    /// Request header fields in arrival order; lookup ignores case.
    public var headers: HTTPHeaders
    /// The request body (empty when none was sent, or when it was spooled to `bodyFile`).
    public var body: [UInt8]
    /// The file a large upload was spooled to (``HTTPServerConfiguration/spool``); the server
    /// removes it once the response is sent. nil: the body is in `body`.
    public var bodyFile: String? = nil
    /// The peer's IP address as text (`127.0.0.1`, `::1`); IPv4-mapped IPv6 addresses are
    /// shown as plain IPv4. Empty when unknown (e.g. a Unix-domain listen socket).
    public var clientAddress: String
    /// An identifier unique to this request, also sent back as `X-Request-Id` and found in
    /// the access log entry; quote it when correlating logs.
    public var requestID: String
    /// The server that received the request, for what it counts (`/metrics`); nil for a
    /// request built in-process. A handler reads it instead of holding the server, so the
    /// application can be built before, and without, a listener.
    public var transport: (any HTTPTransportStatus)? = nil

    /// Builds a request; the server does this, tests and routers may too.
    public init(
        method: HTTPMethod,
        path: String,
        rawPath: String? = nil,
        rawQuery: String? = nil,
        query: HTTPQueryParameters = HTTPQueryParameters(),
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        clientAddress: String = "",
        requestID: String = ""
    ) {
        self.method = method
        self.path = path
        self.rawPath = rawPath ?? path
        self.rawQuery = rawQuery
        self.query = query
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
        self.requestID = requestID
    }

    /// The body decoded as UTF-8, or nil when it is not valid UTF-8.
    public var bodyText: String? { String(validating: body, as: UTF8.self) }
}

/// What a running server counts: open connections and what its limits did, requests in flight
/// and waiting for a handler thread.
public protocol HTTPTransportStatus: AnyObject, Sendable {
    var connectionStatistics: HTTPConnectionStatistics { get }
    var inFlightRequests: Int { get }
    var queuedRequests: Int { get }
}
