/// Writes JSON text member by member, without `Encodable`: for the few payloads on a hot path
/// where the generic containers cost more than the text (a day submission's audit row: an
/// encoder object, a box and a dynamic dispatch per member, ~40k instructions for a small
/// object). The text is byte for byte what `JSONTextEncoder` writes for the same members in the
/// same order, so a type keeps its `Encodable` conformance as the definition and a test holds
/// the hand-written path to it.
///
/// ```swift
/// let b = JSONTextBuilder()
/// b.beginObject()
/// b.member("date"); b.string("2026-05-01")
/// b.member("ids"); b.strings(["a", "b"])
/// b.end()
/// b.bytes   // {"date":"2026-05-01","ids":["a","b"]}
/// ```
public final class JSONTextBuilder {
    let writer = JSONTextWriter()

    public init() {}

    /// The text written so far (complete once every container is ended).
    public var bytes: [UInt8] { writer.out }

    /// Starts a member of the innermost open object; its value follows.
    public func member(_ key: String) { writer.member(depth: writer.depth, key: key) }

    /// Starts an element of the innermost open array; its value follows.
    public func element() { writer.member(depth: writer.depth, key: nil) }

    public func beginObject() { writer.push(object: true) }
    public func beginArray() { writer.push(object: false) }

    /// Ends the innermost open object or array.
    public func end() { writer.close(above: writer.depth - 1) }

    public func string(_ s: String) { writer.string(s) }
    public func integer(_ i: Int) { writer.integer(i) }
    public func integer(_ i: Int64) { writer.integer(i) }
    public func bool(_ b: Bool) { writer.bool(b) }
    public func null() { writer.null() }

    /// A finite number as `JSONSerializer` writes it; throws for NaN and infinity.
    public func number(_ d: Double) throws { try writer.number(d) }

    /// `null` for nil.
    public func number(_ d: Double?) throws { if let d { try writer.number(d) } else { writer.null() } }
    public func integer(_ i: Int?) { if let i { writer.integer(i) } else { writer.null() } }
    public func string(_ s: String?) { if let s { writer.string(s) } else { writer.null() } }

    /// A list of strings.
    public func strings(_ list: [String]) {
        beginArray()
        for s in list { element(); string(s) }
        end()
    }

    /// JSON text copied in as it is.
    public func text(_ t: JSONText) {
        writer.flushPending()
        writer.out.append(contentsOf: t.text.utf8)
    }

    /// Any other value, through `Encodable`.
    public func value<T: Encodable>(_ v: T) throws { try writer.value(v, depth: writer.depth) }
}

extension JSONObjectHead {
    /// The head written by `write`, which must write one object.
    public init(writing write: (JSONTextBuilder) throws -> Void) throws {
        let b = JSONTextBuilder()
        try write(b)
        try self.init(objectText: b.bytes)
    }
}

extension JSONTextEncoder {
    /// One object: the head's members, then those `write` writes (one object too).
    public static func string(_ head: JSONObjectHead, thenWriting write: (JSONTextBuilder) throws -> Void) throws -> String {
        let b = JSONTextBuilder()
        try write(b)
        return String(decoding: try joined(head, b.bytes), as: UTF8.self)
    }
}
