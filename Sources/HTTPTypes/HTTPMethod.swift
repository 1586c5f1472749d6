/// An HTTP request method, kept as the token the client sent.
///
/// Any token is accepted: the transport passes unknown methods (and `HEAD`) through to the
/// handler, and routing decides what they mean.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token exactly as received, e.g. `"GET"`.
    public let rawValue: String

    /// Wraps a method token.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The token itself.
    public var description: String { rawValue }

    // The methods routers commonly match on; any other token works the same way.
    /// `GET`
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// Whether a route declared with this method answers a request made with `requested`: the
    /// same method, or `HEAD` on a `GET` route (GET without the body, which libmicrohttpd leaves
    /// out; RFC 9110 §9.3.2).
    public func serves(_ requested: HTTPMethod) -> Bool {
        self == requested || (requested == .head && self == .get)
    }
}
