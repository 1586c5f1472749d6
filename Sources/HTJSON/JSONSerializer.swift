/// Renders `JSONValue`s as RFC 8259 text. Members keep their order; integral numbers are
/// written without a fraction; other numbers with the shortest representation that round-trips.
public enum JSONSerializer {
    public static func string(_ value: JSONValue, pretty: Bool = false) -> String {
        String(decoding: bytes(value, pretty: pretty), as: UTF8.self)
    }

    /// The UTF-8 text. Written straight into bytes: appending to a `String` scalar by scalar
    /// was most of a submission's serialisation cost (its audit details, stored JSON, answer).
    public static func bytes(_ value: JSONValue, pretty: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out, pretty: pretty, indent: 0)
        return out
    }

    /// Formats a number the way the serializer does (exposed for CSV and form encoders).
    public static func format(_ d: Double) -> String {
        if d.rounded() == d, abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    private static func write(_ value: JSONValue, into out: inout [UInt8], pretty: Bool, indent: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let d): out.append(contentsOf: format(d).utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            if elements.isEmpty { out.append(contentsOf: "[]".utf8); return }
            out.append(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 1) }
                write(e, into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.count == 0 { out.append(contentsOf: "{}".utf8); return }
            out.append(UInt8(ascii: "{"))
            for (i, member) in object.members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 1) }
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                write(member.value, into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], _ indent: Int) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A JSON string literal. Bytes of the UTF-8 text are copied as they are except the two
    /// characters JSON must escape (`"`, `\`), control characters, and U+2028/U+2029 (E2 80 A8/A9),
    /// which are escaped so the text is also safe inside JavaScript.
    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            let count = utf8.count
            var i = 0
            // Runs of bytes that need no escape are copied at once (most strings are one run).
            var run = 0
            func flush(_ end: Int) {
                if run < end { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<end])) }
            }
            while i < count {
                let byte = utf8[i]
                if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != 0xE2 {
                    i += 1
                    continue
                }
                flush(i)
                switch byte {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(byte)
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
                case 0x08: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "f"))
                case 0x00..<0x20:
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0x0F)])
                case 0xE2 where i + 2 < count && utf8[i + 1] == 0x80 && (utf8[i + 2] == 0xA8 || utf8[i + 2] == 0xA9):
                    out.append(contentsOf: (utf8[i + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                    i += 2
                default: out.append(byte)
                }
                i += 1
                run = i
            }
            flush(count)
        }
        out.append(UInt8(ascii: "\""))
    }
}
