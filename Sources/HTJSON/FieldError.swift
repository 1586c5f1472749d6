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

    /// What is wrong, for a reader that words the message itself (the patient web check-in says
    /// it in the page's language); `message` says the same in English for the API.
    public enum Problem: Sendable, Equatable {
        /// Absent, or null, where a value is needed.
        case required
        /// Not a number at all (text, a boolean…).
        case notANumber
        /// Not an integer (text, or a number with a fraction).
        case notAnInteger
        /// A number outside `lower`…`upper`.
        case outOfRange(lower: Double, upper: Double)
        /// Not one of the codes in `allowed`.
        case notOneOf(allowed: [String])
        /// A date outside `first`…`last` (YYYY-MM-DD), e.g. the monitoring window.
        case dateOutside(first: String, last: String)
        /// A date after today.
        case dateInFuture
        /// A date before `first` (YYYY-MM-DD), e.g. a lab time before the surgery date.
        case dateBefore(first: String)
        /// A text whose length in characters is outside `lower`…`upper`.
        case length(lower: Int, upper: Int)
        /// A free text holding a character it may not: a control character other than a line
        /// break or tab, or one that reorders the text around it (`codePoint`, e.g. 0x202E).
        case forbiddenCharacter(codePoint: UInt32)
    }

    public let code: Code
    public let field: String?
    public let message: String
    /// Nil where only the message says what is wrong.
    public let problem: Problem?

    public init(_ code: Code, field: String?, _ message: String, problem: Problem? = nil) {
        self.code = code
        self.field = field
        self.message = message
        self.problem = problem
    }

    public static func invalid(_ field: String?, _ message: String, problem: Problem? = nil) -> FieldError {
        FieldError(.invalidValue, field: field, message, problem: problem)
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
