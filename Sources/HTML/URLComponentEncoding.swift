/// Percent-encoding for the pieces of links the pages build (RFC 3986): a path segment from a
/// study ID, a query value. Everything but the unreserved characters is encoded, so a value can
/// never end the segment, start a query or change the scheme; the result is then escaped again
/// as an attribute by `HTML` interpolation.
public enum URLComponentEncoding {
    /// `P 01/x` → `P%2001%2Fx`.
    public static func segment(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if isUnreserved(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%"
                out += String(byte >> 4, radix: 16, uppercase: true)
                out += String(byte & 0x0F, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// The same encoding serves query names and values.
    public static func queryValue(_ value: String) -> String { segment(value) }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
