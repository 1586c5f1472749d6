/// Reads one JSON object field by field, with the JSON path of every field at hand, and refuses
/// what it was not asked for: `finish()` reports the first member nobody read as `unknown_field`
/// (typos must not be silently dropped).
///
///     let r = try ObjectReader(json, path: "profile")
///     let age = try r.required("age", JSONRead.integer(18...110))
///     let bmi = try r.optional("bmi", JSONRead.number(12...70))
///     try r.finish()
public final class ObjectReader {
    public let path: String
    public let object: JSONObject
    /// Which members were read, by position in `object.members` (no hashing of the key again).
    private var consumed: [Bool]
    private var consumedCount = 0

    public init(_ value: JSONValue, path: String = "") throws(FieldError) {
        guard case .object(let object) = value else {
            throw FieldError.invalid(path.isEmpty ? nil : path, "expected an object, got \(value.typeName)")
        }
        self.object = object
        self.path = path
        consumed = Array(repeating: false, count: object.count)
    }

    public func fieldPath(_ key: String) -> String { jsonPath(path, key) }

    /// Whether the member is present (null included).
    public func has(_ key: String) -> Bool { object[key] != nil }

    /// The raw member, marking it read. (Only members that are there are marked: `finish` looks
    /// at the object's own keys, and most of a day's optional fields are absent.)
    public func raw(_ key: String) -> JSONValue? {
        guard let index = object.position(of: key) else { return nil }
        if !consumed[index] {
            consumed[index] = true
            consumedCount += 1
        }
        return object.members[index].value
    }

    /// A member that must be present and non-null.
    ///
    /// This and the other typed accessors are `@inlinable` so that they are specialized in the
    /// decoders of other modules that call them (generic across a module boundary, each value
    /// went through witness tables and runtime metadata; ≈ 0.5 % of a day submission's CPU).
    @inlinable
    public func required<T>(_ key: String, _ read: JSONRead<T>) throws(FieldError) -> T {
        guard let value = raw(key) else { throw FieldError.invalid(fieldPath(key), "is required", problem: .required) }
        if value.isNull { throw FieldError.invalid(fieldPath(key), "must not be null", problem: .required) }
        return try read.convert(value, fieldPath(key))
    }

    /// A member that may be absent or null (both read as nil).
    @inlinable
    public func optional<T>(_ key: String, _ read: JSONRead<T>) throws(FieldError) -> T? {
        guard let value = raw(key), !value.isNull else { return nil }
        return try read.convert(value, fieldPath(key))
    }

    /// A member whose absence, null and value mean different things (merge semantics).
    @inlinable
    public func presence<T>(_ key: String, _ read: JSONRead<T>) throws(FieldError) -> Presence<T> {
        guard let value = raw(key) else { return .absent }
        if value.isNull { return .null }
        return .value(try read.convert(value, fieldPath(key)))
    }

    /// An array member; absent or null gives nil. Each element is converted with its index path.
    @inlinable
    public func optionalArray<T>(_ key: String, maxCount: Int = 1000,
                                 _ element: (JSONValue, String) throws(FieldError) -> T) throws(FieldError) -> [T]? {
        guard let value = raw(key), !value.isNull else { return nil }
        guard case .array(let items) = value else {
            throw FieldError.invalid(fieldPath(key), "expected an array, got \(value.typeName)")
        }
        guard items.count <= maxCount else { throw FieldError.invalid(fieldPath(key), "more than \(maxCount) items") }
        var out: [T] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() { out.append(try element(item, jsonPath(fieldPath(key), index: i))) }
        return out
    }

    /// Refuses a member by name (e.g. fields only staff may set) if present.
    public func refuse(_ key: String, _ message: String) throws(FieldError) {
        if has(key) { throw FieldError(.notAllowed, field: fieldPath(key), message) }
    }

    /// Fails on the first member that no accessor read.
    public func finish() throws(FieldError) {
        guard consumedCount != object.count else { return }
        for (index, member) in object.members.enumerated() where !consumed[index] {
            throw FieldError(.unknownField, field: fieldPath(member.key), "unknown field")
        }
    }
}

/// Absent, explicitly null, or a value.
public enum Presence<T> {
    case absent
    case null
    case value(T)

    public var value: T? { if case .value(let v) = self { return v } else { return nil } }
    public var isAbsent: Bool { if case .absent = self { return true } else { return false } }
}

extension Presence: Sendable where T: Sendable {}
extension Presence: Equatable where T: Equatable {}

extension ObjectReader {
    /// The elements of the JSON array `text`, a reader for each object (nil for an element that is
    /// not one); nil when `text` is not a JSON array. For JSON text a row stores, read back into
    /// typed values field by field without a JSON value leaving this module.
    public static func elements(ofArray text: String) -> [ObjectReader?]? {
        guard case .array(let items)? = try? JSONParser.parse(text) else { return nil }
        return items.map { try? ObjectReader($0) }
    }
}
