#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One spelling per IP address, the one `SocketAddress.ipString` gives a peer: `2001:DB8:0::1`
/// and `2001:db8::1` are one client, `::ffff:10.0.0.1` is `10.0.0.1`. Anything that is not a
/// numeric IPv4 or IPv6 literal is nil (names, ports, brackets: see `fromForwardedHop`).
public enum IPAddressText {
    public static func canonical(_ literal: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        var v4 = in_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            guard inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count)) != nil else { return nil }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, literal, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        guard inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// An `X-Forwarded-For` hop as proxies write it: a bare address, `[v6]` or `[v6]:port`, or
    /// `v4:port`; canonical, or nil for anything else (`unknown`, a name, garbage).
    public static func fromForwardedHop(_ hop: String) -> String? {
        if hop.hasPrefix("["), let close = hop.firstIndex(of: "]") {
            let rest = hop[hop.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber) && rest.count > 1) else { return nil }
            return canonical(String(hop[hop.index(after: hop.startIndex)..<close]))
        }
        let parts = hop.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2, parts[0].contains("."), !parts[1].isEmpty, parts[1].allSatisfy(\.isNumber) {
            return canonical(String(parts[0]))   // v4:port
        }
        return canonical(hop)
    }
}
