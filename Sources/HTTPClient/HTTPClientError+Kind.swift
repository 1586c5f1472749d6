extension HTTPClientError {
    /// The coarse reason a request failed.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The host name did not resolve (`CURLE_COULDNT_RESOLVE_HOST`, or the proxy's).
        case couldNotResolve
        /// No TCP connection: refused, unreachable (`CURLE_COULDNT_CONNECT`).
        case couldNotConnect
        /// The connect timeout or the total timeout expired (`CURLE_OPERATION_TIMEDOUT`).
        case timedOut
        /// The TLS handshake failed or the peer's certificate did not verify against the
        /// trusted CAs or the host name (`CURLE_PEER_FAILED_VERIFICATION`,
        /// `CURLE_SSL_CONNECT_ERROR`, `CURLE_SSL_CACERT_BADFILE`, …).
        case tlsFailure
        /// The response body or headers exceeded the configured limit; the transfer was
        /// aborted.
        case responseTooLarge
        /// The URL is malformed or uses a scheme this client does not allow.
        case invalidURL
        /// The request cannot be sent as given (e.g. a header field containing a line break,
        /// a body on GET); nothing went on the wire.
        case invalidRequest
        /// Sending the request failed mid-way (`CURLE_SEND_ERROR`).
        case sendFailed
        /// Receiving the response failed or the server closed the connection without a
        /// complete answer (`CURLE_RECV_ERROR`, `CURLE_GOT_NOTHING`, `CURLE_PARTIAL_FILE`).
        case receiveFailed
        /// The awaiting task was cancelled and the transfer aborted.
        case cancelled
        /// Anything else libcurl reported; see ``HTTPClientError/curlCode``.
        case other

        /// A short human phrase, e.g. "could not connect".
        public var summary: String {
            switch self {
            case .couldNotResolve: "could not resolve host"
            case .couldNotConnect: "could not connect"
            case .timedOut: "timed out"
            case .tlsFailure: "TLS failure"
            case .responseTooLarge: "response too large"
            case .invalidURL: "invalid URL"
            case .invalidRequest: "invalid request"
            case .sendFailed: "sending failed"
            case .receiveFailed: "receiving failed"
            case .cancelled: "cancelled"
            case .other: "transfer failed"
            }
        }
    }
}
