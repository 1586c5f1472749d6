import CCurl
import CCurlShims

#if canImport(Glibc)
import Glibc
#endif

/// The `curl_slist` for CURLOPT_RESOLVE ("HOST:PORT:ADDRESS[,ADDRESS]…"), freed in `deinit`;
/// empty (a nil pointer) when the request pins nothing. Kept alive across the transfer, like
/// the header list.
final class CurlResolveList {
    private(set) var pointer: UnsafeMutablePointer<curl_slist>?

    /// - Throws: ``CurlFailure`` `.invalidRequest` when the pin is for another host or port
    ///   than the URL's, has no address, or an address that is not numeric.
    init(_ pin: ResolvedHost?, url: String) throws(CurlFailure) {
        guard let pin else { return }
        guard !pin.addresses.isEmpty else { throw CurlFailure(kind: .invalidRequest, detail: "a resolved host needs an address") }
        guard let (host, port) = Self.hostAndPort(url), host == pin.host.lowercased(), port == pin.port else {
            throw CurlFailure(kind: .invalidRequest, detail: "the resolved host is not the URL's host and port")
        }
        var texts: [String] = []
        for address in pin.addresses {
            if Self.parses(address, family: AF_INET) {
                texts.append(address)
            } else if Self.parses(address, family: AF_INET6) {
                texts.append("[\(address)]")
            } else {
                throw CurlFailure(kind: .invalidRequest, detail: "a resolved address is not a numeric IPv4 or IPv6 address")
            }
        }
        let name = host.contains(":") ? "[\(host)]" : host
        let line = "\(name):\(port):\(texts.joined(separator: ","))"
        guard let list = line.withCString({ curl_slist_append(nil, $0) }) else {
            throw CurlFailure(kind: .other, detail: "curl_slist_append failed (out of memory)")
        }
        pointer = list
    }

    deinit {
        curl_slist_free_all(pointer)
    }

    private static func parses(_ text: String, family: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(family, text, &buffer) == 1
    }

    /// The lower-cased host (IPv6 without brackets) and the port of an http(s) URL.
    static func hostAndPort(_ url: String) -> (String, Int)? {
        let lowered = url.lowercased()
        let https = lowered.hasPrefix("https://")
        guard https || lowered.hasPrefix("http://") else { return nil }
        let authority = lowered.dropFirst(https ? 8 : 7).prefix { !"/?#".contains($0) }
        guard !authority.contains("@") else { return nil }
        let host: Substring, rest: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            rest = authority[authority.index(after: close)...]
        } else {
            host = authority.prefix { $0 != ":" }
            rest = authority.dropFirst(host.count)
        }
        guard !host.isEmpty else { return nil }
        if rest.isEmpty { return (String(host), https ? 443 : 80) }
        guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()), (1...65535).contains(port) else { return nil }
        return (String(host), port)
    }
}
