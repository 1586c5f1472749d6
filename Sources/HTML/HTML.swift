/// A fragment of HTML that is safe by construction: literal text written in source is trusted
/// markup, and every interpolated value is escaped unless it is itself `HTML`.
///
///     let row: HTML = "<td>\(studyId)</td><td class=\"\(level)\">\(word)</td>"
///
/// `studyId` and `word` are escaped for text and for quoted attribute values alike (`&`, `<`,
/// `>`, `"`, `'`), so a study ID or a note can never open a tag or leave an attribute. The only
/// way around it is `HTML(unescaped:)`, for output of a renderer that escapes by itself (the
/// SVG charts); its call sites are few and named.
public struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public private(set) var bytes: [UInt8]

    public init() { bytes = [] }

    /// Markup produced elsewhere and already escaped (an SVG renderer's output). Never pass
    /// data from a request or the database here.
    public init(unescaped markup: String) { bytes = Array(markup.utf8) }

    /// Text, escaped.
    public init(text: String) {
        bytes = []
        HTML.appendEscaped(text, to: &bytes)
    }

    public init(stringLiteral value: String) { bytes = Array(value.utf8) }

    public init(stringInterpolation: Interpolation) { bytes = stringInterpolation.bytes }

    public var description: String { String(decoding: bytes, as: UTF8.self) }

    public static func + (lhs: HTML, rhs: HTML) -> HTML {
        var out = lhs
        out.bytes += rhs.bytes
        return out
    }

    public static func += (lhs: inout HTML, rhs: HTML) { lhs.bytes += rhs.bytes }

    public struct Interpolation: StringInterpolationProtocol {
        var bytes: [UInt8] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            bytes.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        public mutating func appendLiteral(_ literal: String) { bytes += literal.utf8 }

        /// Nested markup, as is.
        public mutating func appendInterpolation(_ html: HTML) { bytes += html.bytes }

        /// Several fragments, one after the other.
        public mutating func appendInterpolation(_ parts: [HTML]) {
            for part in parts { bytes += part.bytes }
        }

        /// Text, escaped.
        public mutating func appendInterpolation(_ text: String) { HTML.appendEscaped(text, to: &bytes) }

        public mutating func appendInterpolation(_ text: Substring) { HTML.appendEscaped(String(text), to: &bytes) }

        /// A number (nothing to escape, but written the same way as text).
        public mutating func appendInterpolation(_ value: Int) { bytes += String(value).utf8 }

        public mutating func appendInterpolation(_ value: Int64) { bytes += String(value).utf8 }

        /// An optional value: nothing when nil.
        public mutating func appendInterpolation(_ text: String?) {
            if let text { HTML.appendEscaped(text, to: &bytes) }
        }
    }

    /// Escapes for element content and quoted attribute values.
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += "&amp;".utf8
            case UInt8(ascii: "<"): out += "&lt;".utf8
            case UInt8(ascii: ">"): out += "&gt;".utf8
            case UInt8(ascii: "\""): out += "&quot;".utf8
            case UInt8(ascii: "'"): out += "&#39;".utf8
            default: out.append(byte)
            }
        }
    }

    /// The fragments, joined by `separator`.
    public static func join(_ parts: [HTML], separator: HTML = HTML()) -> HTML {
        var out = HTML()
        for (i, part) in parts.enumerated() {
            if i > 0 { out.bytes += separator.bytes }
            out.bytes += part.bytes
        }
        return out
    }
}

extension Array where Element == HTML {
    /// The fragments one after the other.
    public func joined(separator: HTML = HTML()) -> HTML { HTML.join(self, separator: separator) }
}
