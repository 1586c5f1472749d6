/// Writes an `Encodable` value as JSON text, byte for byte as `JSONSerializer` writes the same
/// value: members in the order they are encoded (a synthesized `Encodable` encodes its stored
/// properties in declaration order), integral numbers without a fraction, the same escapes.
///
/// Unlike Foundation's `JSONEncoder` (members in hash order, nil members left out), a nil
/// optional member is written as `null`, so a payload's shape does not depend on what is known;
/// a type that wants a member left out when nil says so in its own `encode(to:)`. A `JSONText`
/// is copied in as it is. Used where typed payloads become stored text (audit rows, outbox rows).
///
/// The text is written in one pass, without an intermediate tree: a container is closed when
/// its parent writes its next member (or at the end), which is the order every synthesized
/// `encode(to:)` uses.
public enum JSONTextEncoder {
    public static func bytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        let writer = JSONTextWriter()
        try writer.value(value, depth: 0)
        writer.close(above: 0)
        return writer.out
    }

    public static func string<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try bytes(value), as: UTF8.self)
    }
}

/// JSON text that is already written (e.g. a model's JSON form from `ModelJSON`), embedded as it
/// is by `JSONTextEncoder`. Other encoders see it as a string.
public struct JSONText: Sendable, Equatable, Encodable {
    public let text: String
    public init(_ text: String) { self.text = text }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// The output and the stack of open containers (`true`: an object) with their member counts.
final class JSONTextWriter {
    var out: [UInt8] = []
    private var open: [Bool] = []
    private var counts: [Int] = []

    init() { out.reserveCapacity(256) }

    /// Closes the containers deeper than `depth` (those a finished member left open).
    func close(above depth: Int) {
        while open.count > depth {
            out.append(open.removeLast() ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            counts.removeLast()
        }
    }

    /// Starts a member of the container at `depth` (1 = outermost): the comma and the key.
    func member(depth: Int, key: String?) {
        close(above: depth)
        if counts[depth - 1] > 0 { out.append(UInt8(ascii: ",")) }
        counts[depth - 1] += 1
        if let key {
            JSONSerializer.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
        }
    }

    func push(object: Bool) {
        out.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        open.append(object)
        counts.append(0)
    }

    var depth: Int { open.count }

    func null() { out.append(contentsOf: "null".utf8) }
    func bool(_ b: Bool) { out.append(contentsOf: (b ? "true" : "false").utf8) }
    func string(_ s: String) { JSONSerializer.writeString(s, into: &out) }
    func integer<I: BinaryInteger>(_ i: I) { out.append(contentsOf: String(i).utf8) }

    func number(_ d: Double) throws {
        guard d.isFinite else {
            throw EncodingError.invalidValue(d, EncodingError.Context(codingPath: [], debugDescription: "\(d) is not a JSON number"))
        }
        out.append(contentsOf: JSONSerializer.format(d).utf8)
    }

    /// Writes a value whose member prefix is already written; `depth` is its container's.
    func value<T: Encodable>(_ value: T, depth: Int) throws {
        if T.self == JSONText.self, let raw = value as? JSONText {
            out.append(contentsOf: raw.text.utf8)
            return
        }
        let start = out.count
        try value.encode(to: JSONTextValueEncoder(self, depth: depth))
        if out.count == start { out.append(contentsOf: "{}".utf8) }   // encoded nothing: an empty object
    }
}

/// The encoder one value is written through; `depth` is the number of containers open around it.
final class JSONTextValueEncoder: Encoder {
    let writer: JSONTextWriter
    let depth: Int
    private var opened = false
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ writer: JSONTextWriter, depth: Int) {
        self.writer = writer
        self.depth = depth
    }

    /// Opens this value's container once (a second request returns the same one, as Foundation does).
    private func open(object: Bool) {
        guard !opened else { return }
        opened = true
        writer.close(above: depth)
        writer.push(object: object)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        open(object: true)
        return KeyedEncodingContainer(JSONTextKeyedContainer<Key>(writer: writer, depth: depth + 1))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        open(object: false)
        return JSONTextUnkeyedContainer(writer: writer, depth: depth + 1)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONTextSingleValueContainer(writer: writer, depth: depth)
    }
}

/// A member `JSONTextEncoder` leaves out while it is nil (`@OmittedWhenNil var note: String?`),
/// where a payload has always carried a member only when there is something to say. Other
/// encoders write the value or null.
@propertyWrapper
public struct OmittedWhenNil<Value: Encodable & Sendable>: Encodable, Sendable, OmittableMember {
    public var wrappedValue: Value?
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    var isOmitted: Bool { wrappedValue == nil }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

protocol OmittableMember { var isOmitted: Bool { get } }

extension OmittedWhenNil: Equatable where Value: Equatable {}
