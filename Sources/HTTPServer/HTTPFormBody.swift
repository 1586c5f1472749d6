extension HTTPQueryParameters {
    /// An `application/x-www-form-urlencoded` body (what an HTML form posts), decoded like a
    /// query string: `&`-separated pairs, `+` for space, percent-escapes. A malformed escape or
    /// bytes that are not UTF-8 throw, with a message naming the field.
    public init(formURLEncoded body: [UInt8]) throws(HTTPFormError) {
        do { self = try RequestTarget.parseQuery(body[...]) } catch {
            throw HTTPFormError(message: error.message)
        }
    }
}

/// A form body that cannot be decoded.
public struct HTTPFormError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
