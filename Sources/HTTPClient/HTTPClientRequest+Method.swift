extension HTTPClientRequest {
    /// The methods this client sends.
    public enum Method: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// `GET`
        case get = "GET"
        /// `POST`
        case post = "POST"
        /// `PUT`
        case put = "PUT"
        /// `PATCH`
        case patch = "PATCH"
        /// `DELETE`
        case delete = "DELETE"
        /// `HEAD`: the response has headers only.
        case head = "HEAD"

        /// The method token, e.g. `POST`.
        public var description: String { rawValue }

        /// Whether the method always sends a body (empty when none is given).
        var alwaysHasBody: Bool { self == .post || self == .put || self == .patch }
        /// Whether a body is forbidden (libcurl's GET and HEAD paths send none).
        var forbidsBody: Bool { self == .get || self == .head }
    }
}
