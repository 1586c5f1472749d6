/// A parsed JSON document. Objects keep their members in document order (so output is stable
/// and readable) and never hold a key twice (the parser refuses duplicates).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name of the value's JSON type, for error messages ("expected a number, got a string").
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }
}

/// An ordered JSON object.
public struct JSONObject: Sendable, Equatable {
    public private(set) var members: [(key: String, value: JSONValue)] = []

    public init() {}
    public init(_ members: [(String, JSONValue)]) {
        for (k, v) in members { self[k] = v }
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }

    /// Reads a member; setting replaces an existing key in place or appends; setting nil removes.
    public subscript(key: String) -> JSONValue? {
        get { members.first(where: { $0.key == key })?.value }
        set {
            if let i = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[i].value = newValue } else { members.remove(at: i) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.members.count == b.members.count
            && zip(a.members, b.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

// MARK: - Literals, so encoders read naturally: ["level": "red", "pod": 7]

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension JSONValue {
    /// `.null` for nil, else the wrapped conversion.
    public static func optional<T>(_ value: T?, _ convert: (T) -> JSONValue) -> JSONValue {
        value.map(convert) ?? .null
    }
    public static func int(_ value: Int) -> JSONValue { .number(Double(value)) }
    public static func int(_ value: Int?) -> JSONValue { value.map { .number(Double($0)) } ?? .null }
    public static func double(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }
    public static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    public static func bool(_ value: Bool?) -> JSONValue { value.map { .bool($0) } ?? .null }
}
