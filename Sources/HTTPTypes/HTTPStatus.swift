/// An HTTP status code.
public struct HTTPStatus: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// The numeric code, e.g. 200.
    public let rawValue: Int

    /// Wraps a numeric status code.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Wraps a numeric status code: `let status: HTTPStatus = 204`.
    public init(integerLiteral value: Int) { self.rawValue = value }

    /// The code as digits.
    public var description: String { String(rawValue) }

    /// Whether the code can go on the wire (three digits, 100–599 as RFC 9110 §15 defines).
    public var isValid: Bool { (100...599).contains(rawValue) }

    /// 200 OK
    public static let ok: HTTPStatus = 200
    /// 201 Created
    public static let created: HTTPStatus = 201
    /// 202 Accepted
    public static let accepted: HTTPStatus = 202
    /// 204 No Content
    public static let noContent: HTTPStatus = 204
    /// 303 See Other
    public static let seeOther: HTTPStatus = 303
    /// 400 Bad Request
    public static let badRequest: HTTPStatus = 400
    /// 401 Unauthorized
    public static let unauthorized: HTTPStatus = 401
    /// 403 Forbidden
    public static let forbidden: HTTPStatus = 403
    /// 404 Not Found
    public static let notFound: HTTPStatus = 404
    /// 405 Method Not Allowed
    public static let methodNotAllowed: HTTPStatus = 405
    /// 409 Conflict
    public static let conflict: HTTPStatus = 409
    /// 413 Content Too Large
    public static let payloadTooLarge: HTTPStatus = 413
    /// 422 Unprocessable Content
    public static let unprocessableContent: HTTPStatus = 422
    /// 429 Too Many Requests
    public static let tooManyRequests: HTTPStatus = 429
    /// 500 Internal Server Error
    public static let internalServerError: HTTPStatus = 500
    /// 501 Not Implemented
    public static let notImplemented: HTTPStatus = 501
    /// 503 Service Unavailable
    public static let serviceUnavailable: HTTPStatus = 503
}
