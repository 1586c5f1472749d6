/// Sends requests straight to a handler: request in, response out, no socket. Handler tests use
/// it beside the real-HTTP tests; the handler answers through the same ``HTTPResponder`` the
/// libmicrohttpd adapter gives it.
public struct InProcessHTTPClient: Sendable {
    public typealias Handler = @Sendable (HTTPRequest, HTTPResponder) -> Void

    private let handler: Handler

    public init(handler: @escaping Handler) { self.handler = handler }

    /// Runs the handler and waits (blocking this thread) for its answer. A second answer is
    /// dropped, as on the socket.
    public func send(_ request: HTTPRequest) -> HTTPResponse {
        let responder = HTTPResponder()
        handler(request, responder)
        return responder.waitForAnswer()
    }

    /// A request from its parts; `target` is the request line's target, parsed as the server
    /// parses it (percent-decoding, query string): `/v1/alerts?open=true`.
    public func send(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = HTTPHeaders(), body: String? = nil,
                     clientAddress: String = "127.0.0.1") -> HTTPResponse {
        let parsed: RequestTarget
        do { parsed = try RequestTarget(parsing: Array(target.utf8)) } catch {
            return .jsonError(.badRequest, code: "invalid_value", message: error.message)
        }
        return send(HTTPRequest(method: method, path: parsed.path, rawPath: parsed.rawPath, rawQuery: parsed.rawQuery,
                                query: parsed.query, headers: headers, body: body.map { Array($0.utf8) } ?? [],
                                clientAddress: clientAddress, requestID: "in-process"))
    }
}
