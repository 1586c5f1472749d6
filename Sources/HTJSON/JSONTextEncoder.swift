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

/// An object's leading members written ahead of time (e.g. before a lock is taken); the members
/// known only later follow through `JSONTextEncoder.bytes(_:then:)`, giving the text one value
/// with all the members would have given.
public struct JSONObjectHead: Sendable, Equatable {
    /// The object's text without its closing brace.
    let open: [UInt8]

    public init<T: Encodable>(_ value: T) throws {
        try self.init(objectText: try JSONTextEncoder.bytes(value))
    }

    init(objectText text: [UInt8]) throws {
        guard text.first == UInt8(ascii: "{"), text.last == UInt8(ascii: "}") else { throw JSONTextEncoder.notAnObject(text) }
        open = Array(text.dropLast())
    }
}

extension JSONTextEncoder {
    /// One object: the head's members, then `tail`'s (an object too).
    public static func bytes<T: Encodable>(_ head: JSONObjectHead, then tail: T) throws -> [UInt8] {
        try joined(head, try bytes(tail))
    }

    static func notAnObject(_ text: [UInt8]) -> EncodingError {
        EncodingError.invalidValue(String(decoding: text.prefix(40), as: UTF8.self),
                                   EncodingError.Context(codingPath: [], debugDescription: "the value is not written as an object"))
    }

    /// The head's members and those of `rest`, an object's text.
    static func joined(_ head: JSONObjectHead, _ rest: [UInt8]) throws -> [UInt8] {
        guard rest.first == UInt8(ascii: "{"), rest.last == UInt8(ascii: "}") else { throw notAnObject(rest) }
        var out = head.open
        out.reserveCapacity(out.count + rest.count)
        if head.open.count > 1 && rest.count > 2 { out.append(UInt8(ascii: ",")) }
        out.append(contentsOf: rest.dropFirst())
        return out
    }

    public static func string<T: Encodable>(_ head: JSONObjectHead, then tail: T) throws -> String {
        String(decoding: try bytes(head, then: tail), as: UTF8.self)
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
///
/// A member's separator and key are held back (`pending`) until its value writes something, so
/// a member whose value asks to be left out (`OmittedWhenNil` while nil) writes nothing at all,
/// without the encoder casting every member to find out (a cast per member was most of what a
/// day submission's audit row cost). The stored properties are only touched by the one encoding
/// pass that owns the writer, so the runtime's exclusivity bookkeeping is switched off for them.
final class JSONTextWriter {
    @exclusivity(unchecked) var out: [UInt8] = []
    @exclusivity(unchecked) private var open: [Bool] = []
    @exclusivity(unchecked) private var counts: [Int] = []
    /// The member started but not yet written: its container's depth and key (nil in an array).
    @exclusivity(unchecked) private var pending: (depth: Int, key: String?)?

    init() { out.reserveCapacity(256) }

    /// Closes the containers deeper than `depth` (those a finished member left open).
    func close(above depth: Int) {
        while open.count > depth {
            out.append(open.removeLast() ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            counts.removeLast()
        }
    }

    /// Starts a member of the container at `depth` (1 = outermost): closes what the previous
    /// member left open; the comma and the key follow with the member's first output.
    func member(depth: Int, key: String?) {
        close(above: depth)
        pending = (depth, key)
    }

    /// Writes the pending member's comma and key (before text copied in as it is).
    func flushPending() { flush() }

    /// Writes the pending member's comma and key.
    @inline(__always) private func flush() {
        guard let (depth, key) = pending else { return }
        pending = nil
        if counts[depth - 1] > 0 { out.append(UInt8(ascii: ",")) }
        counts[depth - 1] += 1
        if let key {
            JSONSerializer.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
        }
    }

    /// Drops the pending member of an object (its value is to be left out); false when there is
    /// none (a value at the top or in an array, which is written as null instead).
    func omitPendingMember() -> Bool {
        guard let p = pending, p.key != nil else { return false }
        pending = nil
        return true
    }

    func push(object: Bool) {
        flush()
        out.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        open.append(object)
        counts.append(0)
    }

    var depth: Int { open.count }

    func null() { flush(); out.append(contentsOf: "null".utf8) }
    func bool(_ b: Bool) { flush(); out.append(contentsOf: (b ? "true" : "false").utf8) }
    func string(_ s: String) { flush(); JSONSerializer.writeString(s, into: &out) }
    func integer<I: BinaryInteger>(_ i: I) { flush(); out.append(contentsOf: String(i).utf8) }

    func number(_ d: Double) throws {
        guard d.isFinite else {
            throw EncodingError.invalidValue(d, EncodingError.Context(codingPath: [], debugDescription: "\(d) is not a JSON number"))
        }
        flush()
        out.append(contentsOf: JSONSerializer.format(d).utf8)
    }

    /// Writes the values that are most of a payload (strings, numbers, lists of strings, JSON
    /// text) without going through `Encodable`: the generic path costs an encoder, a container
    /// and a few dynamic dispatches per value. False for any other type.
    @inline(__always) private func scalar<T: Encodable>(_ value: T) throws -> Bool {
        if T.self == String.self {
            string(unsafeBitCast(value, to: String.self))
        } else if T.self == [String].self {
            let list = unsafeBitCast(value, to: [String].self)
            flush()
            out.append(UInt8(ascii: "["))
            for (i, s) in list.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONSerializer.writeString(s, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        } else if T.self == Int.self {
            integer(unsafeBitCast(value, to: Int.self))
        } else if T.self == Int64.self {
            integer(unsafeBitCast(value, to: Int64.self))
        } else if T.self == Double.self {
            try number(unsafeBitCast(value, to: Double.self))
        } else if T.self == Bool.self {
            bool(unsafeBitCast(value, to: Bool.self))
        } else if T.self == JSONText.self {
            flush()
            out.append(contentsOf: unsafeBitCast(value, to: JSONText.self).text.utf8)
        } else {
            return false
        }
        return true
    }

    /// Writes a value whose member is already started; `depth` is its container's.
    func value<T: Encodable>(_ value: T, depth: Int) throws {
        if try scalar(value) { return }
        let start = out.count
        let encoder = JSONTextValueEncoder(self, depth: depth)
        try value.encode(to: encoder)
        if out.count == start && !encoder.omitted {   // encoded nothing: an empty object
            flush()
            out.append(contentsOf: "{}".utf8)
        }
    }
}

/// The encoder one value is written through; `depth` is the number of containers open around it.
final class JSONTextValueEncoder: Encoder {
    let writer: JSONTextWriter
    let depth: Int
    private var opened = false
    /// The value asked to be left out of its object (`OmittedWhenNil` while nil).
    private(set) var omitted = false
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

    /// Leaves this value's member out of its object; false when it is not an object's member.
    func omit() -> Bool {
        omitted = writer.omitPendingMember()
        return omitted
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
public struct OmittedWhenNil<Value: Encodable & Sendable>: Encodable, Sendable {
    public var wrappedValue: Value?
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: any Encoder) throws {
        if wrappedValue == nil, let text = encoder as? JSONTextValueEncoder, text.omit() { return }
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension OmittedWhenNil: Equatable where Value: Equatable {}
