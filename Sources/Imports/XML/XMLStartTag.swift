/// A start tag as the scanner found it: its name and attributes as byte ranges into the
/// scanner's buffer, valid only during the callback (nothing is copied unless asked for).
public struct XMLStartTag {
    let base: UnsafePointer<UInt8>
    let nameStart: Int, nameEnd: Int
    /// (name start, name end, value start, value end) per attribute, into `base`.
    let spans: UnsafeBufferPointer<(Int, Int, Int, Int)>
    /// The tag's position in the document, in bytes from its start (for error messages).
    public let offset: Int

    public func nameIs(_ name: StaticString) -> Bool { Self.equal(base, nameStart, nameEnd, name) }

    public var attributeCount: Int { spans.count }

    /// The raw (still entity-encoded) value of the attribute `name`.
    public func value(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? {
        for s in spans where Self.equal(base, s.0, s.1, name) {
            return UnsafeBufferPointer(start: base + s.2, count: s.3 - s.2)
        }
        return nil
    }

    /// The attribute's value with XML's predefined and numeric character references decoded.
    public func string(_ name: StaticString) -> String? { value(name).map(XMLText.decode) }

    static func equal(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ s: StaticString) -> Bool {
        guard end - start == s.utf8CodeUnitCount else { return false }
        return memcmp(base + start, s.utf8Start, end - start) == 0
    }
}

/// Attribute text: `&lt;` `&gt;` `&amp;` `&apos;` `&quot;` and `&#N;`/`&#xH;` (XML 1.0 §4.6, §4.1).
enum XMLText {
    static func decode(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            let b = raw[i]
            guard b == UInt8(ascii: "&"), let semi = raw[i...].firstIndex(of: UInt8(ascii: ";")), semi - i <= 10 else {
                out.append(b); i += 1; continue
            }
            let name = String(decoding: raw[(i + 1)..<semi], as: UTF8.self)
            var scalar: Unicode.Scalar?
            switch name {
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "amp": scalar = "&"
            case "apos": scalar = "'"
            case "quot": scalar = "\""
            default:
                if name.hasPrefix("#x"), let v = UInt32(name.dropFirst(2), radix: 16) { scalar = Unicode.Scalar(v) }
                else if name.hasPrefix("#"), let v = UInt32(name.dropFirst()) { scalar = Unicode.Scalar(v) }
            }
            if let scalar {
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
                i = semi + 1
            } else {
                out.append(b); i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

#if canImport(Glibc)
import Glibc
#endif
