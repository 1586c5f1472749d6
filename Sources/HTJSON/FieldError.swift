/// Input that was well-formed JSON but wrong for its field, or malformed JSON itself.
/// `field` is a JSON path such as `symptoms[0].vas` (nil for the document as a whole); the codes
/// are the API's error codes (docs/product.md, "Errors").
public struct FieldError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case invalidJSON = "invalid_json"
        case invalidValue = "invalid_value"
        case unknownField = "unknown_field"
        case notAllowed = "not_allowed"
    }

    public let code: Code
    public let field: String?
    public let message: String

    public init(_ code: Code, field: String?, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public static func invalid(_ field: String?, _ message: String) -> FieldError {
        FieldError(.invalidValue, field: field, message)
    }

    public var description: String {
        if let field { return "\(field): \(message)" }
        return message
    }
}

/// Joins JSON path components: `path("days[0]", "symptoms")` → `days[0].symptoms`.
public func jsonPath(_ parent: String, _ key: String) -> String {
    parent.isEmpty ? key : "\(parent).\(key)"
}

/// `days[3]`
public func jsonPath(_ parent: String, index: Int) -> String { "\(parent)[\(index)]" }
