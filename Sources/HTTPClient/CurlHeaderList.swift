import CCurl
import CCurlShims

/// The `curl_slist` of request header lines for CURLOPT_HTTPHEADER, freed in `deinit`.
///
/// "libcurl does not copy the list, it needs to be kept around until after the transfer
/// has completed" (https://curl.se/libcurl/c/CURLOPT_HTTPHEADER.html): keep this object
/// alive across `curl_easy_perform`.
final class CurlHeaderList {
    private(set) var pointer: UnsafeMutablePointer<curl_slist>?

    /// Validates and converts `headers`.
    ///
    /// - Throws: ``CurlFailure`` with kind `.invalidRequest` for a name that is not an RFC
    ///   9110 token or a value containing CR, LF or NUL (header injection). The message names
    ///   the field, never its value.
    init(_ headers: HTTPHeaders) throws(CurlFailure) {
        for field in headers {
            guard Self.isToken(field.name) else {
                throw CurlFailure(kind: .invalidRequest,
                                  detail: "header field name \"\(Self.printable(field.name))\" is not a valid token")
            }
            guard !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
                throw CurlFailure(kind: .invalidRequest,
                                  detail: "header field \(field.name) has a value containing CR, LF or NUL")
            }
            try append(Self.line(name: field.name, value: field.value))
        }
    }

    deinit {
        curl_slist_free_all(pointer)
    }

    /// Adds a raw line such as `Expect:` (which, with nothing after the colon, removes a
    /// header libcurl would add itself).
    func append(_ line: String) throws(CurlFailure) {
        let appended = line.withCString { curl_slist_append(pointer, $0) }
        guard let appended else {
            throw CurlFailure(kind: .other, detail: "curl_slist_append failed (out of memory)")
        }
        pointer = appended
    }

    /// "If you provide a header with no contents on the right side of the colon, libcurl
    /// removes that internal header … To add a header with no content … terminate it with a
    /// semicolon" (CURLOPT_HTTPHEADER). So an empty value is written `Name;`.
    private static func line(name: String, value: String) -> String {
        value.isEmpty ? "\(name);" : "\(name): \(value)"
    }

    /// RFC 9110 §5.6.2 `token = 1*tchar`.
    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    /// A name shown in an error: printable ASCII only, shortened.
    private static func printable(_ text: String) -> String {
        String(text.unicodeScalars.prefix(40).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
    }
}
