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

/// An ordered JSON object. Lookups and insertions are O(1) on average once an object is large:
/// past `indexedFrom` members a key → position index is kept beside the members, so parsing (or
/// building) an object with n keys costs O(n), not O(n²). Small objects, the common case, search
/// their few members linearly and carry no index.
public struct JSONObject: Sendable, Equatable {
    public private(set) var members: [(key: String, value: JSONValue)] = []
    /// Position of each key in `members`; nil while the object has fewer than `indexedFrom` members.
    private var positions: [String: Int]?

    /// Below this many members a linear search is cheaper than hashing the key.
    static let indexedFrom = 16

    public init() {}
    public init(_ members: [(String, JSONValue)]) {
        for (k, v) in members { self[k] = v }
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }

    /// Reads a member; setting replaces an existing key in place or appends; setting nil removes.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let i = position(of: key) {
                if let newValue { members[i].value = newValue } else { remove(at: i) }
            } else if let newValue {
                appendNew(key, newValue)
            }
        }
    }

    func contains(_ key: String) -> Bool { position(of: key) != nil }

    /// Appends a member whose key the caller knows is not present (the parser, which refuses duplicates).
    mutating func appendNew(_ key: String, _ value: JSONValue) {
        members.append((key, value))
        if positions != nil {
            positions?[key] = members.count - 1
        } else if members.count >= Self.indexedFrom {
            reindex()
        }
    }

    /// The index of `key` in `members` (for `ObjectReader`, which marks members by position).
    func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        return members.firstIndex { $0.key == key }
    }

    private mutating func remove(at i: Int) {
        members.remove(at: i)
        if members.count < Self.indexedFrom { positions = nil } else { reindex() }
    }

    private mutating func reindex() {
        var index = [String: Int](minimumCapacity: members.count * 2)
        for (i, member) in members.enumerated() { index[member.key] = i }
        positions = index
    }

    /// Members in order; the index is derived from them and takes no part.
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
