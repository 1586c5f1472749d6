import HTJSON
import HyponaTrackDomain

/// One member of a request body, declared once: its name, how it is read (type and limits) and
/// the JSON Schema `/openapi.json` shows for it. A route's decoder and its spec both use the
/// same declaration, so they cannot disagree on a limit.
struct BodyField<Value>: @unchecked Sendable {
    // JSONRead holds a non-Sendable closure; every BodyField is an immutable constant built at
    // start-up from pure conversions, read concurrently but never mutated.
    let name: String
    let read: JSONRead<Value>
    let schema: JSONValue
    let isRequired: Bool

    /// The same field, required.
    var required: BodyField { BodyField(name: name, read: read, schema: schema, isRequired: true) }

    /// The member as the spec lists it: optional members also accept null (the reader treats a
    /// null optional member as absent).
    var member: BodyMember { BodyMember(name: name, schema: isRequired ? schema : S.nullable(schema), isRequired: isRequired) }
}

/// A body member as the spec lists it, whatever its value type.
struct BodyMember: Sendable {
    let name: String
    let schema: JSONValue
    let isRequired: Bool
}

extension BodyField where Value == String {
    /// A free text people type for other people to read (a note, a reason): every one is
    /// declared here, so each refuses what `FreeText` refuses, with the field named.
    static func text(_ name: String, length: ClosedRange<Int>) -> BodyField {
        BodyField(name: name,
                  read: JSONRead.string(length: length).map { text, path throws(FieldError) in
                      try FreeText.check(text, path: path)
                      return text
                  },
                  schema: S.string(min: length.lowerBound, max: length.upperBound), isRequired: false)
    }
    /// A string only compared, never shown to anyone (a password, an activation code): any
    /// characters, as typed.
    static func secret(_ name: String, length: ClosedRange<Int>) -> BodyField {
        BodyField(name: name, read: .string(length: length), schema: S.string(min: length.lowerBound, max: length.upperBound),
                  isRequired: false)
    }
    static func oneOf(_ name: String, _ values: [String]) -> BodyField {
        BodyField(name: name, read: .oneOf(values), schema: S.oneOf(values), isRequired: false)
    }
    static func pattern(_ name: String, _ pattern: String, length: ClosedRange<Int>, expected: String,
                        _ isValid: @escaping (String) -> Bool) -> BodyField {
        BodyField(name: name, read: .string(length: length, expected: expected, isValid), schema: S.string(pattern),
                  isRequired: false)
    }
}

extension BodyField {
    /// A string of `length` characters parsed into a value; `parse` returning nil is refused
    /// with `refusal` for the field.
    static func parsed(_ name: String, length: ClosedRange<Int>, schema: JSONValue, refusal: String,
                       _ parse: @escaping (String) -> Value?) -> BodyField {
        BodyField(name: name,
                  read: JSONRead.string(length: length).map { text, path throws(FieldError) in
                      guard let value = parse(text) else { throw FieldError.invalid(path, refusal) }
                      return value
                  },
                  schema: schema, isRequired: false)
    }
}

extension BodyField where Value == Double {
    static func number(_ name: String, _ range: ClosedRange<Double>) -> BodyField {
        BodyField(name: name, read: .number(range), schema: S.number(range.lowerBound, range.upperBound), isRequired: false)
    }
}

extension BodyField where Value == Int {
    static func integer(_ name: String, _ range: ClosedRange<Int>) -> BodyField {
        BodyField(name: name, read: .integer(range), schema: S.integer(range.lowerBound, range.upperBound), isRequired: false)
    }
}

extension BodyField where Value == Bool {
    static func bool(_ name: String) -> BodyField { BodyField(name: name, read: .bool, schema: S.bool, isRequired: false) }
}

extension S {
    /// A request body object from its declared members.
    static func body(_ members: [BodyMember]) -> JSONValue {
        object(members.map { ($0.name, $0.schema) }, required: members.filter(\.isRequired).map(\.name))
    }
}

extension ObjectReader {
    /// A declared member that must be present and non-null.
    func required<T>(_ field: BodyField<T>) throws(FieldError) -> T { try required(field.name, field.read) }
    /// A declared member that may be absent or null.
    func optional<T>(_ field: BodyField<T>) throws(FieldError) -> T? { try optional(field.name, field.read) }
}

/// Reads a whole body with `read` and refuses unknown members; a `FieldError` names the field.
func decodeBody<T>(_ body: JSONValue, _ read: (ObjectReader) throws(FieldError) -> T) throws(FieldError) -> T {
    let r = try ObjectReader(body)
    let value = try read(r)
    try r.finish()
    return value
}
