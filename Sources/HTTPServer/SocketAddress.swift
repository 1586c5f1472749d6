#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// IPv4/IPv6 literals to `sockaddr` and back. Numeric only: the server binds literals, never
/// names, so no resolver is involved.
enum SocketAddress {
    /// A `sockaddr_in` or `sockaddr_in6` for `host:port`, ready for `MHD_OPTION_SOCK_ADDR`.
    struct Bindable {
        var storage = sockaddr_storage()
        var isIPv6 = false
    }

    /// Parses an IP literal (brackets around IPv6 are tolerated). Throws for names such as
    /// `localhost`, so a typo does not silently bind elsewhere.
    static func bindable(host: String, port: UInt16) throws(HTTPServerError) -> Bindable {
        var literal = host
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        var result = Bindable()
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &result.storage) { raw in
                withUnsafeBytes(of: v4) { raw.copyMemory(from: $0) }
            }
            return result
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &result.storage) { raw in
                withUnsafeBytes(of: v6) { raw.copyMemory(from: $0) }
            }
            result.isIPv6 = true
            return result
        }
        throw HTTPServerError(
            .invalidConfiguration,
            "host \"\(host)\" is not an IPv4 or IPv6 address literal (use 127.0.0.1 or ::1, not a name)")
    }

    /// The textual IP of a peer address; IPv4-mapped IPv6 (`::ffff:10.0.0.1`) is shown as
    /// IPv4 so that logs and per-client rules see one spelling. Empty for other families.
    static func ipString(_ address: UnsafePointer<sockaddr>?) -> String {
        guard let address else { return "" }
        switch Int32(address.pointee.sa_family) {
        case AF_INET: return IPAddressText.text(UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self).sin_addr) ?? ""
        case AF_INET6: return IPAddressText.text(UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self).sin6_addr) ?? ""
        default: return ""
        }
    }
}
