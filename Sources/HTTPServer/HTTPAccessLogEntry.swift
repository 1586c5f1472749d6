/// What the server reports about each answered request, for the access log.
///
/// Deliberately without the query string (it may carry tokens), headers (`Authorization`)
/// and bodies (patient data).
public struct HTTPAccessLogEntry: Sendable {
    /// The request method.
    public let method: HTTPMethod
    /// The decoded path without the query string (the raw path if it could not be decoded).
    public let path: String
    /// The status that was queued.
    public let status: HTTPStatus
    /// Seconds from the request line arriving to the response being sent (or the
    /// connection ending).
    public let durationSeconds: Double
    /// Response body size in bytes (what a GET would carry; a HEAD sends none).
    public let bodyBytes: Int
    /// The client's IP address.
    public let clientAddress: String
    /// The request's identifier, as sent in `X-Request-Id`.
    public let requestID: String
    /// Whether libmicrohttpd reports the response as fully sent
    /// (`MHD_REQUEST_TERMINATED_COMPLETED_OK`); false when the client went away, a timeout
    /// hit, or the server shut down first.
    public let completed: Bool

    /// Builds an entry (the server does this).
    public init(
        method: HTTPMethod, path: String, status: HTTPStatus, durationSeconds: Double,
        bodyBytes: Int, clientAddress: String, requestID: String, completed: Bool
    ) {
        self.method = method
        self.path = path
        self.status = status
        self.durationSeconds = durationSeconds
        self.bodyBytes = bodyBytes
        self.clientAddress = clientAddress
        self.requestID = requestID
        self.completed = completed
    }
}
