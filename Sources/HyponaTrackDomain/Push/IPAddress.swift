import Foundation

/// An IPv4 or IPv6 address as its network-order bytes, and whether it is on the public
/// internet (IANA's special-purpose registries, RFC 6890 and its updates).
public enum IPAddress: Sendable, Equatable {
    case v4([UInt8])
    case v6([UInt8])

    /// False for loopback, private, link-local, shared (CGN), documentation, benchmarking,
    /// multicast, reserved and unspecified addresses, and for IPv6 forms that embed one of those
    /// IPv4 addresses (mapped `::ffff:0:0/96`, NAT64 `64:ff9b::/96`).
    public var isPublic: Bool {
        switch self {
        case .v4(let b): return b.count == 4 && Self.isPublicV4(b)
        case .v6(let b):
            guard b.count == 16 else { return false }
            if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF { return Self.isPublicV4(Array(b[12...])) }
            if b[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return Self.isPublicV4(Array(b[12...])) }
            if b[0..<15].allSatisfy({ $0 == 0 }) { return false }               // :: and ::1
            if b[0] & 0xFE == 0xFC { return false }                             // fc00::/7 unique local
            if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return false }             // fe80::/10 link-local
            if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return false }             // fec0::/10 site-local (deprecated)
            if b[0] == 0xFF { return false }                                    // ff00::/8 multicast
            if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8 { return false } // 2001:db8::/32 documentation
            if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x00 && b[3] == 0x00 { return false } // 2001::/32 Teredo
            if b[0] == 0x20 && b[1] == 0x02 { return false }                    // 2002::/16 6to4 (embeds any IPv4)
            if b[0] == 0x01 && b[1] == 0x00 && b[2..<8].allSatisfy({ $0 == 0 }) { return false } // 100::/64 discard
            return b[0] & 0xE0 == 0x20                                          // 2000::/3: global unicast
        }
    }

    /// The numeric form: `192.0.2.1`, `2001:db8::1` (`inet_ntop`).
    public var text: String {
        let (family, bytes): (Int32, [UInt8]) = switch self {
        case .v4(let b): (AF_INET, b)
        case .v6(let b): (AF_INET6, b)
        }
        var out = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard bytes.count == (family == AF_INET ? 4 : 16), inet_ntop(family, bytes, &out, socklen_t(out.count)) != nil else { return "" }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func isPublicV4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1], b[2]) {
        case (0, _, _), (10, _, _), (127, _, _): return false               // this network, private, loopback
        case (100, 64...127, _): return false                               // shared address space (CGN)
        case (169, 254, _): return false                                    // link-local (cloud metadata)
        case (172, 16...31, _): return false                                // private
        case (192, 0, 0), (192, 0, 2), (192, 88, 99): return false          // IETF, TEST-NET-1, 6to4 relay
        case (192, 168, _): return false                                    // private
        case (198, 18...19, _): return false                                // benchmarking
        case (198, 51, 100), (203, 0, 113): return false                    // TEST-NET-2, TEST-NET-3
        case (224...255, _, _): return false                                // multicast, reserved, broadcast
        default: return true
        }
    }
}
