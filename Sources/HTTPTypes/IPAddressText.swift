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
        var v4 = in_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 { return text(v4) }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, literal, &v6) == 1 else { return nil }
        return text(v6)
    }

    /// An IPv4 address in dotted form; nil only if `inet_ntop` fails.
    public static func text(_ address: in_addr) -> String? {
        var address = address
        return format { inet_ntop(AF_INET, &address, $0, $1) != nil }
    }

    /// An IPv6 address in its shortest form, or an IPv4-mapped one (`::ffff:10.0.0.1`) as IPv4.
    public static func text(_ address: in6_addr) -> String? {
        var address = address
        let bytes = withUnsafeBytes(of: address) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        return format { inet_ntop(AF_INET6, &address, $0, $1) != nil }
    }

    private static func format(_ write: (UnsafeMutablePointer<CChar>, socklen_t) -> Bool) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let count = socklen_t(buffer.count)
        guard buffer.withUnsafeMutableBufferPointer({ write($0.baseAddress!, count) }) else { return nil }
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
