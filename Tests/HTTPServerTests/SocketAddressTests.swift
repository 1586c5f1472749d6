@testable import HTTPServer
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct SocketAddressTests {
    private func ipString(family: Int32, literal: String) -> String {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            if family == AF_INET {
                var v4 = sockaddr_in()
                v4.sin_family = sa_family_t(AF_INET)
                inet_pton(AF_INET, literal, &v4.sin_addr)
                withUnsafeBytes(of: v4) { raw.copyMemory(from: $0) }
            } else {
                var v6 = sockaddr_in6()
                v6.sin6_family = sa_family_t(AF_INET6)
                inet_pton(AF_INET6, literal, &v6.sin6_addr)
                withUnsafeBytes(of: v6) { raw.copyMemory(from: $0) }
            }
        }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress.ipString($0) }
        }
    }

    @Test func formatsIPv4AndIPv6AndUnmapsIPv4InIPv6() {
        #expect(ipString(family: AF_INET, literal: "10.1.2.3") == "10.1.2.3")
        #expect(ipString(family: AF_INET6, literal: "2001:db8::1") == "2001:db8::1")
        #expect(ipString(family: AF_INET6, literal: "::ffff:192.168.0.7") == "192.168.0.7")
        #expect(SocketAddress.ipString(nil) == "")
    }

    @Test func bindsLiteralsOnly() throws {
        #expect(try SocketAddress.bindable(host: "0.0.0.0", port: 80).isIPv6 == false)
        #expect(try SocketAddress.bindable(host: "[::1]", port: 80).isIPv6)
        #expect(throws: HTTPServerError.self) { try SocketAddress.bindable(host: "localhost", port: 80) }
    }
}
