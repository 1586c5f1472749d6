/// An ordered list of HTTP header fields with case-insensitive name lookup, shared by the
/// server (requests received, responses sent) and the client (requests sent, responses received).
///
/// Order and repeated names are kept as received (or as added), because some fields
/// (`Set-Cookie`, `Vary`) are meaningful per occurrence.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public typealias Field = (name: String, value: String)

    private var storage: [Field]

    /// An empty header list.
    public init() { storage = [] }

    /// Headers in the given order; repeated names are kept.
    public init(_ fields: [Field]) { storage = fields }

    /// `["Content-Type": "application/json"]`; order is kept.
    public init(dictionaryLiteral elements: (String, String)...) {
        storage = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value for `name` (compared case-insensitively), or nil.
    public subscript(name: String) -> String? {
        storage.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        storage.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Whether a field called `name` is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(name: String, value: String) {
        storage.append((name: name, value: value))
    }

    /// Replaces every field called `name` with a single one.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        storage.append((name: name, value: value))
    }

    /// Removes every field called `name`.
    public mutating func remove(name: String) {
        storage.removeAll { Self.namesMatch($0.name, name) }
    }

    /// Number of fields.
    public var count: Int { storage.count }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { storage.makeIterator() }

    /// The field names only: values may be credentials and must not reach a log.
    public var description: String {
        "HTTPHeaders(" + storage.map(\.name).joined(separator: ", ") + ")"
    }

    /// Same fields in the same order, names compared case-insensitively.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.storage.count == rhs.storage.count
            && zip(lhs.storage, rhs.storage).allSatisfy {
                namesMatch($0.name, $1.name) && $0.value == $1.value
            }
    }

    /// Field names are ASCII tokens (RFC 9110 §5.1) and compare case-insensitively; comparing
    /// ASCII bytes avoids Unicode case folding, which could make distinct names equal.
    public static func namesMatch(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        return zip(x, y).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}

extension HTTPHeaders {
    /// The `Content-Type` without its parameters, lowercased (`application/json` for
    /// `Application/JSON; charset=utf-8`); nil when absent or empty. Read as bytes: every
    /// request with a body asks.
    public var mediaType: String? {
        guard var value = self["content-type"] else { return nil }
        return value.withUTF8 { bytes -> String? in
            func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
            var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            var start = 0
            while start < end, isBlank(bytes[start]) { start += 1 }
            while end > start, isBlank(bytes[end - 1]) { end -= 1 }
            guard start < end else { return nil }
            let lowered = bytes[start..<end].map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
            return String(decoding: lowered, as: UTF8.self)
        }
    }
}
