import HTJSON

/// A rule file that cannot be used: which file, which key, what is wrong.
public struct RulesError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let key: String?
    public let message: String

    public init(file: String, key: String?, message: String) {
        self.file = file
        self.key = key
        self.message = message
    }

    init(file: String, _ error: FieldError) {
        self.init(file: file, key: error.field, message: error.message)
    }

    public var description: String {
        if let key { return "\(file): \(key): \(message)" }
        return "\(file): \(message)"
    }
}
