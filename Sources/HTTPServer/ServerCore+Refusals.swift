import CMicroHTTPD

/// The answers the server gives itself, before a handler sees the request (a body over the
/// limit, an unreadable target, the stopping 503), and the application's say in them
/// (``HTTPServerConfiguration/refusalResponse``).
extension ServerCore {
    /// Answer 413 before reading the body only when that cannot cost the client its answer:
    /// it sent `Expect: 100-continue` (so it waits for us and sends no body), or the body
    /// is so large that we would not read it anyway. Otherwise a client that already sent
    /// its body would see the connection reset instead of the 413, so we read and discard.
    func shouldRejectBodyUpFront(_ connection: OpaquePointer, _ context: ConnectionState) -> Bool {
        guard let lengthText = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
            let length = UInt64(String(cString: lengthText)), length > UInt64(context.bodyLimit)
        else { return false }
        if length > UInt64(Self.discardLimit(context)) || context.spooled { return true }
        guard let expect = MHD_lookup_connection_value(connection, .HEADER_KIND, "Expect") else { return false }
        return String(cString: expect).lowercased() == "100-continue"
    }

    /// The answer to a request whose body framing is ambiguous or unsupported
    /// (``RequestFraming``), before a byte of the body is read. Queued from the first call of
    /// the access handler, it makes libmicrohttpd discard the rest and close the connection
    /// ("response was queued "early", refuse to read body / footers or further requests",
    /// connection.c); `Connection: close` tells the client so.
    func framingRefusal(_ connection: OpaquePointer, _ context: ConnectionState) -> HTTPResponse? {
        guard let problem = RequestFraming.problem(in: context.headers, httpVersion: context.httpVersion) else { return nil }
        var response = refusal(problem.status, problem.code, problem.message, connection, context)
        response.headers.replaceOrAdd(name: "Connection", value: "close")
        return response
    }

    func tooLargeResponse(_ connection: OpaquePointer, _ context: ConnectionState) -> HTTPResponse {
        refusal(.payloadTooLarge, "too_large", "The request body is larger than the limit of \(context.bodyLimit) bytes.", connection, context)
    }

    /// One of the server's own answers: the JSON error envelope, or what the application's
    /// ``HTTPServerConfiguration/refusalResponse`` makes of it.
    func refusal(_ status: HTTPStatus, _ code: String, _ message: String, _ connection: OpaquePointer,
                 _ context: ConnectionState, retryAfter: String? = nil) -> HTTPResponse {
        var response = HTTPResponse.jsonError(status, code: code, message: message)
        if let retryAfter { response.headers.add(name: "Retry-After", value: retryAfter) }
        guard let refusalResponse else { return response }
        return refusalResponse(HTTPServerRefusal(code: code, message: message, response: response,
                                                 rawPath: RequestTarget.rawPath(of: context.rawTarget),
                                                 headers: context.headers,
                                                 clientAddress: context.clientAddress)) ?? response
    }

    /// The answer to a request the stopping server will not handle; the client may retry.
    static func stoppingResponse() -> HTTPResponse {
        var response = HTTPResponse.jsonError(.serviceUnavailable, code: "unavailable", message: stoppingMessage)
        response.headers.add(name: "Retry-After", value: "1")
        return response
    }

    static let stoppingMessage = "The server is stopping; try again shortly."

    /// `stoppingResponse` for a request whose connection is at hand (as the application answers it).
    func stoppingResponse(_ connection: OpaquePointer, _ context: ConnectionState) -> HTTPResponse {
        refusal(.serviceUnavailable, "unavailable", Self.stoppingMessage, connection, context, retryAfter: "1")
    }
}
