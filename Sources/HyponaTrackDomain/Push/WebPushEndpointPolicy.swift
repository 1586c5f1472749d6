import Foundation
import HTTPClient

/// Which Web Push endpoints the daemon will POST to (docs/product.md, third round, settled W):
/// an endpoint is a URL the browser chose, so without a rule a patient's subscription could make
/// the daemon send requests into the hospital's own network.
///
/// - The endpoint must be `https://`.
/// - Its host must match `push.webPush.allowedHosts`: an exact name (`fcm.googleapis.com`,
///   `127.0.0.1`), a suffix pattern (`*.push.apple.com`: any name below it) or `*` (any host).
///   The default is the major browsers' push services.
/// - Every address the host resolves to must be public — unless the host is listed by its exact
///   name: only a host the operator named may be private or loopback (the tests' receiver).
///
/// Registration checks it; the sender checks it again before each request (a name may resolve
/// differently later) and connects to the addresses it checked, not to a second lookup's.
public struct WebPushEndpointPolicy: Sendable {
    /// Chrome/Edge/Opera (FCM), Firefox (Mozilla autopush), Safari (Apple), legacy Edge (WNS).
    public static let defaultAllowedHosts = [
        "fcm.googleapis.com", "*.googleapis.com", "updates.push.services.mozilla.com", "*.push.services.mozilla.com",
        "web.push.apple.com", "*.push.apple.com", "*.notify.windows.com",
    ]

    public let allowedHosts: [String]
    let resolver: any HostResolver

    public init(allowedHosts: [String], resolver: any HostResolver = SystemHostResolver()) {
        self.allowedHosts = allowedHosts.map { $0.lowercased() }
        self.resolver = resolver
    }

    /// Why the daemon will not send to `endpoint`, or nil.
    public func problem(_ endpoint: String) -> String? {
        if case .failure(let refusal) = destination(endpoint) { return refusal.reason }
        return nil
    }

    /// Why an endpoint is refused; `passing` when asking again later may find it fine (its
    /// host did not resolve: a DNS failure), so a push to it is retried rather than failed.
    public struct Refusal: Error, Equatable {
        public let reason: String
        public var passing = false
    }

    /// Where the sender may connect for `endpoint`: the addresses just checked, to pin the
    /// connection to (`CURLOPT_RESOLVE`, so libcurl's own lookup cannot lead elsewhere — DNS
    /// rebinding), or nil for a host the operator named (connected to as DNS says); or why not.
    public func destination(_ endpoint: String) -> Result<ResolvedHost?, Refusal> {
        guard endpoint.lowercased().hasPrefix("https://") else { return .failure(Refusal(reason: "the endpoint must be an https:// URL")) }
        guard let host = Self.host(of: endpoint), let port = Self.port(of: endpoint) else {
            return .failure(Refusal(reason: "the endpoint has no host"))
        }
        let named = allowedHosts.contains(host)
        guard named || allowedHosts.contains(where: { Self.matches(host, pattern: $0) }) else {
            return .failure(Refusal(reason: "the endpoint's host \(host.prefix(100)) is not a push service this server sends to (push.webPush.allowedHosts)"))
        }
        if named { return .success(nil) }
        let addresses = resolver.addresses(of: host)
        guard !addresses.isEmpty else {
            return .failure(Refusal(reason: "the endpoint's host \(host.prefix(100)) does not resolve", passing: true))
        }
        guard addresses.allSatisfy(\.isPublic) else {
            return .failure(Refusal(reason: "the endpoint's host \(host.prefix(100)) resolves to a private address"))
        }
        return .success(ResolvedHost(host: host, port: port, addresses: addresses.map(\.text)))
    }

    /// `*` any host; `*.example.com` any name below example.com; otherwise the exact name.
    static func matches(_ host: String, pattern: String) -> Bool {
        if pattern == "*" { return true }
        if pattern.hasPrefix("*.") { return host.hasSuffix(pattern.dropFirst(1)) }
        return host == pattern
    }

    /// The port of an `https://` URL (443 when it names none), nil when it is not a number in 1…65535.
    static func port(of url: String) -> Int? {
        let authority = Self.authority(url)
        let afterHost = authority.hasPrefix("[") ? authority.drop { $0 != "]" }.dropFirst() : authority.drop { $0 != ":" }
        guard !afterHost.isEmpty else { return 443 }
        guard afterHost.hasPrefix(":"), let port = Int(afterHost.dropFirst()), (1...65535).contains(port) else { return nil }
        return port
    }

    private static func authority(_ url: String) -> Substring {
        url.lowercased().dropFirst("https://".count).prefix { !"/?#".contains($0) }
    }

    /// The host of an `https://` URL, lower case, an IPv6 literal without its brackets.
    static func host(of url: String) -> String? {
        let authority = Self.authority(url)
        guard !authority.contains("@") else { return nil }
        var host: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
        } else {
            host = authority.prefix { $0 != ":" }
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        return host.isEmpty ? nil : String(host)
    }
}

/// Turns a host name into its addresses (a seam for tests; the daemon uses `getaddrinfo`).
public protocol HostResolver: Sendable {
    func addresses(of host: String) -> [IPAddress]
}

/// The system's resolver (`getaddrinfo(3)`, which also parses address literals).
public struct SystemHostResolver: HostResolver {
    public init() {}

    public func addresses(of host: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var out: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let e = entry {
            if let sa = e.pointee.ai_addr {
                if e.pointee.ai_family == AF_INET {
                    let a = sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                    out.append(.v4(withUnsafeBytes(of: a) { Array($0) }))
                } else if e.pointee.ai_family == AF_INET6 {
                    let a = sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                    out.append(.v6(withUnsafeBytes(of: a) { Array($0) }))
                }
            }
            entry = e.pointee.ai_next
        }
        return out
    }
}
