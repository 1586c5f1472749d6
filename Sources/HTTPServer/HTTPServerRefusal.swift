/// An answer the server gives itself, before any handler sees the request: a request target it
/// cannot read (400 `invalid_value`), a body over the limit (413 `too_large`), an upload that
/// could not be stored or a request that arrives while the server stops (503 `unavailable`).
/// ``HTTPServerConfiguration/refusalResponse`` may answer it otherwise — with a page and the
/// page headers for a browser's path, say.
public struct HTTPServerRefusal: Sendable {
    /// The error code of the default answer (`invalid_value`, `too_large`, `unavailable`).
    public let code: String
    /// What went wrong, in English, for the default answer.
    public let message: String
    /// The default answer: the `{"error":{…}}` envelope, with `Retry-After` where it applies.
    public let response: HTTPResponse
    /// The path as the client sent it, escapes left as they are and bytes that are not UTF-8
    /// replaced: enough to tell which part of a site a request was for even when its target
    /// could not be read.
    public let rawPath: String
    /// The request's headers (`Accept-Language`, `Cookie`, …).
    public let headers: HTTPHeaders
    public let clientAddress: String

    public var status: HTTPStatus { response.status }
}
