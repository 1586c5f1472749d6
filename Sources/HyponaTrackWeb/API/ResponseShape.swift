import HTJSON
import HyponaTrackCore
import HyponaTrackDomain

/// One response object, declared once: each member's name, the JSON Schema `/openapi.json`
/// shows for it, and how it is read from the value. The encoder writes exactly the declared
/// members, in their order, and the schema lists exactly them, so the answer and its
/// description cannot disagree (as `BodyField` does for request bodies). A member is required
/// unless it is declared `omittedWhenNil`: every other member is always written (null included).
///
/// Shapes are `static let` constants: the schema is built once, encoding only walks the members.
struct ResponseShape<Value>: Sendable {
    /// The component name under `#/components/schemas/` (nil: written inline where used).
    let name: String?
    let members: [ResponseMember<Value>]
    /// The object schema: the members' schemas, the always-written ones required, nothing else allowed.
    let schema: JSONValue

    /// `groups` are written one after the other (a shape's own members and another's `embedded`).
    init(_ name: String? = nil, _ groups: [ResponseMember<Value>]...) {
        let members = groups.flatMap { $0 }
        precondition(Set(members.map(\.name)).count == members.count, "a response shape declares a member twice")
        self.name = name
        self.members = members
        schema = S.object(members.map { ($0.name, $0.schema) }, required: members.filter(\.isRequired).map(\.name))
    }

    /// What a route's `responses` or another shape's member shows: a reference to the component,
    /// or the schema itself for an unnamed shape.
    var reference: JSONValue { name.map(S.ref) ?? schema }

    /// The entry under `#/components/schemas/` of a named shape.
    var component: (name: String, schema: JSONValue) {
        guard let name else { preconditionFailure("an unnamed response shape is written inline, not as a component") }
        return (name, schema)
    }

    func encode(_ value: Value) -> JSONValue {
        var object = JSONObject()
        for member in members {
            if let json = member.encode(value) { object[member.name] = json }
        }
        return .object(object)
    }

    /// The same members read from a larger value (a patient's detail starts with its summary).
    func embedded<Outer>(_ part: @escaping @Sendable (Outer) -> Value) -> [ResponseMember<Outer>] {
        members.map { $0.from(part) }
    }
}

/// One member of a `ResponseShape`.
struct ResponseMember<Value>: Sendable {
    let name: String
    let schema: JSONValue
    let isRequired: Bool
    /// The member's JSON; nil leaves it out (only for `omittedWhenNil` members).
    let encode: @Sendable (Value) -> JSONValue?

    /// A member always written: `form` says its schema and its JSON, `get` reads it from the value.
    static func member<T>(_ name: String, _ form: JSONForm<T>, _ get: @escaping @Sendable (Value) -> T) -> ResponseMember {
        ResponseMember(name: name, schema: form.schema, isRequired: true) { form.encode(get($0)) }
    }

    /// A member written only when it has a value (not required; never null).
    static func omittedWhenNil<T>(_ name: String, _ form: JSONForm<T>, _ get: @escaping @Sendable (Value) -> T?) -> ResponseMember {
        ResponseMember(name: name, schema: form.schema, isRequired: false) { get($0).map(form.encode) }
    }

    func from<Outer>(_ part: @escaping @Sendable (Outer) -> Value) -> ResponseMember<Outer> {
        let encode = self.encode
        return ResponseMember<Outer>(name: name, schema: schema, isRequired: isRequired) { encode(part($0)) }
    }
}

/// How a value of type `T` is written in a response, and the JSON Schema of what is written.
struct JSONForm<T>: Sendable {
    let schema: JSONValue
    let encode: @Sendable (T) -> JSONValue

    /// Null for nil, else the wrapped form.
    static func nullable<Wrapped>(_ form: JSONForm<Wrapped>) -> JSONForm<Wrapped?> where T == Wrapped? {
        JSONForm<Wrapped?>(schema: S.nullable(form.schema)) { $0.map(form.encode) ?? .null }
    }

    static func array<Element>(_ form: JSONForm<Element>) -> JSONForm<[Element]> where T == [Element] {
        JSONForm<[Element]>(schema: S.array(form.schema)) { .array($0.map(form.encode)) }
    }

    /// A nested object: a reference to a named shape's component, or an unnamed shape inline.
    static func object(_ shape: ResponseShape<T>) -> JSONForm { JSONForm(schema: shape.reference, encode: shape.encode) }
}

extension JSONForm where T == JSONValue {
    /// A value already in JSON (a form built elsewhere, e.g. `ModelJSON`), described by `schema`.
    static func json(_ schema: JSONValue) -> JSONForm { JSONForm(schema: schema) { $0 } }
}

extension JSONForm where T == String {
    static var string: JSONForm { string(S.anyString) }
    /// A string the schema says more about (a pattern, an enumeration).
    static func string(_ schema: JSONValue) -> JSONForm { JSONForm(schema: schema) { .string($0) } }
}

extension JSONForm where T: RawRepresentable, T.RawValue == String {
    /// A code written as its raw value; the schema lists `cases`, the values this member takes.
    static func oneOf(_ cases: some Sequence<T>) -> JSONForm { JSONForm(schema: S.oneOf(cases.map(\.rawValue))) { .string($0.rawValue) } }
}

extension JSONForm where T == Int {
    static var integer: JSONForm { JSONForm(schema: S.anyInteger) { .int($0) } }
}

extension JSONForm where T == Int64 {
    /// A row id or a sequence number.
    static var id: JSONForm { JSONForm(schema: S.anyInteger) { .number(Double($0)) } }
    /// Epoch milliseconds written as ISO 8601 in UTC (`iso8601UTC`).
    static var instant: JSONForm { JSONForm(schema: S.dateTime) { .string(iso8601UTC(milliseconds: $0)) } }
}

extension JSONForm where T == Double {
    static var number: JSONForm { number(S.anyNumber) }
    static func number(_ schema: JSONValue) -> JSONForm { JSONForm(schema: schema) { .number($0) } }
}

extension JSONForm where T == Bool {
    static var bool: JSONForm { JSONForm(schema: S.bool) { .bool($0) } }
}

extension JSONForm where T == LocalDate {
    static var date: JSONForm { JSONForm(schema: S.date) { .string($0.description) } }
}

extension JSONForm where T == Level {
    /// A day's or an alert's level: never `info`, which only a reason has.
    static var level: JSONForm { oneOf([Level.green, .yellow, .red]) }
}
