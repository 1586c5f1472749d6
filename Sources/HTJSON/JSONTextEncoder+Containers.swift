/// The containers of `JSONTextEncoder`. Each starts a member (comma, key) in the container at
/// its depth, closing whatever a previous member left open, then writes the value.

struct JSONTextKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONTextWriter
    let depth: Int
    var codingPath: [any CodingKey] { [] }

    private func start(_ key: Key) { writer.member(depth: depth, key: key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws { start(key); writer.null() }
    mutating func encode(_ value: Bool, forKey key: Key) throws { start(key); writer.bool(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { start(key); writer.string(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { start(key); try writer.number(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { start(key); try writer.number(Double(value)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { start(key); writer.integer(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { start(key); writer.integer(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { start(key); writer.integer(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { start(key); writer.integer(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { start(key); writer.integer(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { start(key); writer.integer(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { start(key); writer.integer(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { start(key); writer.integer(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { start(key); writer.integer(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { start(key); writer.integer(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        start(key)
        try writer.value(value, depth: depth)
    }

    // A nil optional is written as null (the default implementations would leave the member out).
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { start(key); if let value { writer.bool(value) } else { writer.null() } }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { start(key); if let value { writer.string(value) } else { writer.null() } }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { start(key); if let value { try writer.number(value) } else { writer.null() } }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { start(key); if let value { try writer.number(Double(value)) } else { writer.null() } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { start(key); if let value { writer.integer(value) } else { writer.null() } }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { start(key); if let value { writer.integer(value) } else { writer.null() } }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { start(key); if let value { writer.integer(value) } else { writer.null() } }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { start(key); if let value { writer.integer(value) } else { writer.null() } }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { start(key); if let value { writer.integer(value) } else { writer.null() } }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { start(key); if let value { writer.integer(value) } else { writer.null() } }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { start(key); if let value { writer.integer(value) } else { writer.null() } }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { start(key); if let value { writer.integer(value) } else { writer.null() } }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { start(key); if let value { writer.integer(value) } else { writer.null() } }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { start(key); if let value { writer.integer(value) } else { writer.null() } }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        start(key)
        if let value { try writer.value(value, depth: depth) } else { writer.null() }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        start(key)
        writer.push(object: true)
        return KeyedEncodingContainer(JSONTextKeyedContainer<NestedKey>(writer: writer, depth: depth + 1))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        start(key)
        writer.push(object: false)
        return JSONTextUnkeyedContainer(writer: writer, depth: depth + 1)
    }

    mutating func superEncoder() -> any Encoder {
        writer.member(depth: depth, key: "super")
        return JSONTextValueEncoder(writer, depth: depth)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        start(key)
        return JSONTextValueEncoder(writer, depth: depth)
    }
}

struct JSONTextUnkeyedContainer: UnkeyedEncodingContainer, JSONTextScalarContainer {
    let writer: JSONTextWriter
    let depth: Int
    private(set) var count = 0
    var codingPath: [any CodingKey] { [] }

    init(writer: JSONTextWriter, depth: Int) {
        self.writer = writer
        self.depth = depth
    }

    mutating func start() {
        writer.member(depth: depth, key: nil)
        count += 1
    }


    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        start()
        writer.push(object: true)
        return KeyedEncodingContainer(JSONTextKeyedContainer<NestedKey>(writer: writer, depth: depth + 1))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        start()
        writer.push(object: false)
        return JSONTextUnkeyedContainer(writer: writer, depth: depth + 1)
    }

    mutating func superEncoder() -> any Encoder {
        start()
        return JSONTextValueEncoder(writer, depth: depth)
    }
}

/// One value in place: its member prefix (if any) is already written by the parent.
struct JSONTextSingleValueContainer: SingleValueEncodingContainer, JSONTextScalarContainer {
    let writer: JSONTextWriter
    let depth: Int
    var codingPath: [any CodingKey] { [] }

    func start() { writer.close(above: depth) }

}

/// What the unkeyed and the single-value container write alike: each scalar after the
/// container's own `start()` (an array's separator, or closing what a parent left open).
protocol JSONTextScalarContainer {
    var writer: JSONTextWriter { get }
    var depth: Int { get }
    mutating func start()
}

extension JSONTextScalarContainer {
    mutating func encodeNil() throws { start(); writer.null() }
    mutating func encode(_ value: Bool) throws { start(); writer.bool(value) }
    mutating func encode(_ value: String) throws { start(); writer.string(value) }
    mutating func encode(_ value: Double) throws { start(); try writer.number(value) }
    mutating func encode(_ value: Float) throws { start(); try writer.number(Double(value)) }
    mutating func encode(_ value: Int) throws { start(); writer.integer(value) }
    mutating func encode(_ value: Int8) throws { start(); writer.integer(value) }
    mutating func encode(_ value: Int16) throws { start(); writer.integer(value) }
    mutating func encode(_ value: Int32) throws { start(); writer.integer(value) }
    mutating func encode(_ value: Int64) throws { start(); writer.integer(value) }
    mutating func encode(_ value: UInt) throws { start(); writer.integer(value) }
    mutating func encode(_ value: UInt8) throws { start(); writer.integer(value) }
    mutating func encode(_ value: UInt16) throws { start(); writer.integer(value) }
    mutating func encode(_ value: UInt32) throws { start(); writer.integer(value) }
    mutating func encode(_ value: UInt64) throws { start(); writer.integer(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { start(); try writer.value(value, depth: depth) }
}
