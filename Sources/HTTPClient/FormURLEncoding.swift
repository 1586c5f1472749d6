/// `application/x-www-form-urlencoded` encoding with one documented choice: only RFC 3986
/// "unreserved" characters (`ALPHA / DIGIT / "-" / "." / "_" / "~"`, RFC 3986 §2.3) are
/// left as they are; every other UTF-8 byte is percent-encoded with upper-case hex, space
/// included (`%20`).
///
/// WHATWG's form serializer writes a space as `+` instead; every form decoder (PHP's, which
/// REDCap uses, included) reads both `%20` and `+` as a space, and `%20` cannot be confused
/// with a literal plus (sent as `%2B`), so this is the unambiguous choice.
public enum FormURLEncoding {
    /// `name=value&name=value…`, pairs in order.
    public static func encode(_ fields: [(String, String)]) -> String {
        fields.map { percentEncode($0.0) + "=" + percentEncode($0.1) }.joined(separator: "&")
    }

    /// `text` with every byte outside the unreserved set as `%XX`.
    public static func percentEncode(_ text: String) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hexDigits[Int(byte >> 4)])
                encoded.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
