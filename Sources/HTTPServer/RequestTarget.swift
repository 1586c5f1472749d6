/// The request-target of a request line (RFC 9112 §3.2), split and percent-decoded.
///
/// We parse the raw target ourselves (libmicrohttpd hands it over untouched through
/// `MHD_OPTION_URI_LOG_CALLBACK`) instead of using MHD's in-place unescaping, so that
/// malformed escapes, invalid UTF-8 and NUL bytes become a clear 400 rather than a silently
/// truncated C string.
struct RequestTarget: Equatable {
    /// Decoded path, e.g. `/patients/P 01`.
    let path: String
    /// Path as sent, e.g. `/patients/P%2001`.
    let rawPath: String
    /// Query as sent, without `?`; nil when there was no `?`.
    let rawQuery: String?
    /// Decoded query parameters.
    let query: HTTPQueryParameters

    init(parsing raw: [UInt8]) throws(RequestTargetError) {
        var target = raw[...]
        if let hash = target.firstIndex(of: UInt8(ascii: "#")) {
            target = target[..<hash]  // a fragment is never meant for the server
        }
        target = try Self.stripAbsoluteForm(target)

        let pathBytes: ArraySlice<UInt8>
        let queryBytes: ArraySlice<UInt8>?
        if let mark = target.firstIndex(of: UInt8(ascii: "?")) {
            pathBytes = target[..<mark]
            queryBytes = target[target.index(after: mark)...]
        } else {
            pathBytes = target
            queryBytes = nil
        }

        guard pathBytes.first == UInt8(ascii: "/") || Array(pathBytes) == [UInt8(ascii: "*")] else {
            throw RequestTargetError("The request path must start with \"/\".")
        }
        rawPath = try Self.text(pathBytes, what: "request path")
        path = try Self.text(
            Self.percentDecode(pathBytes, plusIsSpace: false, what: "request path"),
            what: "request path")
        if let queryBytes {
            rawQuery = try Self.text(queryBytes, what: "query string")
            query = try Self.parseQuery(queryBytes)
        } else {
            rawQuery = nil
            query = HTTPQueryParameters()
        }
    }

    /// The path part of a raw target as sent, escapes left as they are and bytes that are not
    /// UTF-8 replaced; for a target that does not parse (``HTTPServerRefusal/rawPath``).
    static func rawPath(of raw: [UInt8]) -> String {
        var target = raw[...]
        if let hash = target.firstIndex(of: UInt8(ascii: "#")) { target = target[..<hash] }
        target = (try? stripAbsoluteForm(target)) ?? target
        if let mark = target.firstIndex(of: UInt8(ascii: "?")) { target = target[..<mark] }
        return String(decoding: target, as: UTF8.self)
    }

    /// `application/x-www-form-urlencoded` style pairs, as browsers and URLSearchParams write
    /// query strings: `&`-separated, first `=` splits name from value, `+` means space.
    static func parseQuery(_ bytes: ArraySlice<UInt8>) throws(RequestTargetError)
        -> HTTPQueryParameters
    {
        var items: [HTTPQueryParameters.Item] = []
        for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let nameBytes: ArraySlice<UInt8>
            let valueBytes: ArraySlice<UInt8>
            if let eq = pair.firstIndex(of: UInt8(ascii: "=")) {
                nameBytes = pair[..<eq]
                valueBytes = pair[pair.index(after: eq)...]
            } else {
                nameBytes = pair
                valueBytes = []
            }
            let name = try text(percentDecode(nameBytes, plusIsSpace: true, what: "query parameter name"),
                                what: "query parameter name")
            let value = try text(percentDecode(valueBytes, plusIsSpace: true, what: "query parameter \"\(name)\""),
                                 what: "query parameter \"\(name)\"")
            items.append(HTTPQueryParameters.Item(name: name, value: value))
        }
        return HTTPQueryParameters(items)
    }

    /// `http://host/path` → `/path` (absolute-form is legal but only proxies should get it).
    private static func stripAbsoluteForm(_ target: ArraySlice<UInt8>) throws(RequestTargetError)
        -> ArraySlice<UInt8>
    {
        guard target.first != UInt8(ascii: "/") else { return target }
        let lower = target.prefix(8).map { $0 | 0x20 }
        let schemeLength: Int
        if lower.starts(with: Array("http://".utf8)) {
            schemeLength = 7
        } else if lower.starts(with: Array("https://".utf8)) {
            schemeLength = 8
        } else {
            return target
        }
        let authorityStart = target.index(target.startIndex, offsetBy: schemeLength)
        let rest = target[authorityStart...]
        guard let slash = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") })
        else { return [UInt8(ascii: "/")][...] }
        if rest[slash] == UInt8(ascii: "?") { return ([UInt8(ascii: "/")] + rest[slash...])[...] }
        return rest[slash...]
    }

    /// RFC 3986 §2.1 percent-decoding; a `%` not followed by two hex digits is an error, as is
    /// a decoded NUL byte (it would truncate the value in any C API further down).
    static func percentDecode(
        _ bytes: ArraySlice<UInt8>, plusIsSpace: Bool, what: String
    ) throws(RequestTargetError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard bytes.distance(from: index, to: bytes.endIndex) >= 3,
                    let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { throw RequestTargetError("The \(what) has a malformed percent-escape.") }
                let decoded = high << 4 | low
                guard decoded != 0 else { throw RequestTargetError("The \(what) contains a NUL byte.") }
                out.append(decoded)
                index += 3
            } else {
                out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func text<C: Collection<UInt8>>(_ bytes: C, what: String) throws(RequestTargetError)
        -> String
    {
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw RequestTargetError("The \(what) is not valid UTF-8.")
        }
        return string
    }
}
