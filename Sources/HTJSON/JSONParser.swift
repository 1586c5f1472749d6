/// A strict RFC 8259 parser: no comments, no trailing commas, no NaN, no duplicate keys,
/// a nesting limit, and errors that say where the document broke.
public struct JSONParser {
    /// Deepest nesting of arrays and objects accepted (a guard against stack exhaustion).
    public static let maximumDepth = 64

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected content after the JSON value") }
        return value
    }

    private let bytes: [UInt8]
    private var index = 0

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, offset: index)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(JSONSyntaxError) {
        let expected = Array(literal.utf8)
        guard index + expected.count <= bytes.count else { throw error("unexpected end of input") }
        for i in 0..<expected.count where bytes[index + i] != expected[i] { throw error("invalid literal") }
        index += expected.count
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try parseString()
            guard !object.contains(key) else { throw error("duplicate member \"\(key)\"") }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let value: JSONValue
            do { value = try parseValue(depth: depth) } catch { throw error.inside(key: key) }
            object.appendNew(key, value)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
            throw error("expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            do { elements.append(try parseValue(depth: depth)) } catch { throw error.inside(index: elements.count) }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw error("expected ',' or ']'")
        }
    }

    /// A number the text writes as nonzero must not read as 0 (`1e-400` underflows) nor as
    /// infinity (`1e400` overflows): both are refused as out of range rather than silently changed.
    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        var nonzeroDigit = false
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("leading zero in number") }
        } else {
            nonzeroDigit = true
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) {
                if bytes[index] != UInt8(ascii: "0") { nonzeroDigit = true }
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw outOfRange(text, at: start, "it cannot be represented") }
        guard value.isFinite else { throw outOfRange(text, at: start, "it is too large to be represented") }
        guard value != 0 || !nonzeroDigit else {
            throw outOfRange(text, at: start, "it is not zero but too small to be represented (it would read as 0)")
        }
        return value
    }

    private func outOfRange(_ text: String, at offset: Int, _ reason: String) -> JSONSyntaxError {
        let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
        return JSONSyntaxError(message: "\(shown) is out of range: \(reason)", offset: offset, kind: .numberOutOfRange)
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        // Most strings (ids, times, codes) have no escape: taken from the input as they are,
        // without a copy byte by byte (ASCII needs no validation).
        let start = index
        var ascii = true, i = index
        scan: while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                index = i + 1
                if ascii { return String(decoding: bytes[start..<i], as: UTF8.self) }
                guard let s = String(validating: bytes[start..<i], as: UTF8.self) else { throw error("invalid UTF-8 in string") }
                return s
            case UInt8(ascii: "\\"), 0x00...0x1F: break scan   // an escape or a control character: read carefully below
            case 0x80...: ascii = false
            default: break
            }
            i += 1
        }
        var out = [UInt8]()
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                // Validate UTF-8: invalid sequences are refused, never silently replaced.
                guard let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in string") }
                return s
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated string") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired surrogate") }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("unpaired surrogate")
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error("invalid escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw error("invalid escape")
                }
            case 0x00...0x1F:
                throw error("control character in string")
            default:
                out.append(b)
                index += 1
            }
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("invalid \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }
}

/// JSON text the parser refused, with the byte offset where parsing stopped. A number that is
/// well-formed but cannot be represented (`1e400`, `1e-400`) is `numberOutOfRange` and carries the
/// JSON path of its value (`symptoms[0].vas`; empty for the document itself), so a caller can
/// report it like any other invalid field value.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case malformed
        case numberOutOfRange
    }

    public let message: String
    public let offset: Int
    public let kind: Kind
    public private(set) var path: String

    public init(message: String, offset: Int, kind: Kind = .malformed, path: String = "") {
        self.message = message
        self.offset = offset
        self.kind = kind
        self.path = path
    }

    public var description: String {
        switch kind {
        case .malformed: return "malformed JSON at byte \(offset): \(message)"
        case .numberOutOfRange: return "\(path.isEmpty ? "(document)" : path): \(message) (byte \(offset))"
        }
    }

    /// The error as seen from the object holding the value under `key` (paths are built while
    /// the error travels out, so a document that parses pays nothing for them).
    func inside(key: String) -> JSONSyntaxError {
        guard kind == .numberOutOfRange else { return self }
        return with(path: path.isEmpty ? key : path.hasPrefix("[") ? key + path : "\(key).\(path)")
    }

    /// The error as seen from the array holding the value at `index`.
    func inside(index: Int) -> JSONSyntaxError {
        guard kind == .numberOutOfRange else { return self }
        return with(path: "[\(index)]" + (path.isEmpty || path.hasPrefix("[") ? path : ".\(path)"))
    }

    private func with(path newPath: String) -> JSONSyntaxError {
        var e = self
        e.path = newPath
        return e
    }
}
