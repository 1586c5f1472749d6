import HTJSON
import HyponaTrackDomain

/// An error the API answers with: status, the docs/product.md error code, a message for the person
/// who can act on it, and the JSON path of the offending field (or nil).
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: Int
    public var code: String
    public var message: String
    public var field: String?
    /// Seconds for a `retry-after` header (429).
    public var retryAfter: Int?
    /// The methods for an `Allow` header (405).
    public var allow: [String]?

    public init(status: Int, code: String, message: String, field: String? = nil, retryAfter: Int? = nil,
                allow: [String]? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
        self.allow = allow
    }

    public var description: String { "\(status) \(code): \(message)\(field.map { " (\($0))" } ?? "")" }

    public var body: JSONValue { Self.shape.encode(self) }

    /// The `Error` component: `{"error": {"code", "message", "field"}}`.
    static let shape = ResponseShape<APIError>("Error", [
        .member("error", .object(ResponseShape<APIError>(nil, [
            .member("code", .string) { $0.code },
            .member("message", .string) { $0.message },
            .member("field", .nullable(.string)) { $0.field },
        ]))) { $0 },
    ])

    public static func invalid(_ field: String?, _ message: String) -> APIError {
        APIError(status: 400, code: "invalid_value", message: message, field: field)
    }
    public static func from(_ e: FieldError) -> APIError {
        APIError(status: 400, code: e.code.rawValue, message: e.message, field: e.field)
    }
    public static func invalidJSON(_ message: String) -> APIError {
        APIError(status: 400, code: "invalid_json", message: message)
    }
    public static func notFound(_ message: String) -> APIError { APIError(status: 404, code: "not_found", message: message) }
    public static func conflict(_ message: String, field: String? = nil) -> APIError {
        APIError(status: 409, code: "conflict", message: message, field: field)
    }
    public static let unauthenticated = APIError(status: 401, code: "unauthenticated",
                                                 message: "a valid bearer token is required")
    /// A patient token past its lifetime (`tokens.patientDaysAfterMonitoring` after the
    /// monitoring window ended): the app should say monitoring is over, not ask to log in again.
    public static let expiredToken = APIError(status: 401, code: "expired_token",
                                              message: "this patient token has expired: the monitoring period is over")
    /// An address whose anonymous-route bucket is empty (`limits.anonymousPerMinute`).
    public static func rateLimited(retryAfter seconds: Int) -> APIError {
        APIError(status: 429, code: "rate_limited", message: "too many refused attempts from this address; try again later",
                 retryAfter: seconds)
    }
    public static func forbidden(_ message: String) -> APIError { APIError(status: 403, code: "forbidden", message: message) }
}
