import HTJSON
/// What a handler answers: status, header fields and body bytes.
///
/// `Content-Length` is computed by the server (libmicrohttpd refuses an application-set one:
/// "Content-Length application-defined header is not allowed", microhttpd.h) and any such
/// header here is ignored. For `HEAD` requests libmicrohttpd sends the headers only.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: HTTPStatus
    /// Header fields, sent in order.
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: [UInt8]

    /// Builds a response.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A UTF-8 text body with the given content type.
    public init(status: HTTPStatus, contentType: String, text: String) {
        self.init(status: status, headers: ["Content-Type": contentType], body: Array(text.utf8))
    }

    /// A response whose body is already-serialised JSON text, with
    /// `Content-Type: application/json; charset=utf-8`.
    public static func json(_ status: HTTPStatus, _ jsonText: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json; charset=utf-8", text: jsonText)
    }

    /// A plain-text response.
    public static func text(_ status: HTTPStatus, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", text: text)
    }

    /// The project's error envelope,
    /// `{"error":{"code":"…","message":"…","field":…}}`, with the strings JSON-escaped.
    public static func jsonError(
        _ status: HTTPStatus, code: String, message: String, field: String? = nil
    ) -> HTTPResponse {
        let quoted = { (s: String) in JSONSerializer.string(.string(s)) }
        let fieldJSON = field.map(quoted) ?? "null"
        return json(
            status,
            #"{"error":{"code":\#(quoted(code)),"message":\#(quoted(message)),"field":\#(fieldJSON)}}"#
        )
    }

    /// The body decoded as UTF-8, or nil when it is not valid UTF-8.
    public var bodyText: String? { String(validating: body, as: UTF8.self) }
}
