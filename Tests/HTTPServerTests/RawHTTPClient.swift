#if canImport(Glibc)
import Glibc
#endif

/// A deliberately tiny HTTP/1.1 client over a raw socket, so tests control every byte:
/// malformed request lines, bodies sent in slow pieces, pipelined or half-finished requests.
final class RawHTTPClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        let code: Int32
        init(_ what: String, errno code: Int32 = errno) {
            self.code = code
            description = "\(what) (errno \(code): \(String(cString: strerror(code))))"
        }
    }

    private let fd: Int32
    private var buffered: [UInt8] = []

    /// Connects to `host:port`, from the IPv4 address `source` if given (any 127.x.y.z works
    /// on Linux loopback, so a test can be several clients). Reads time out after
    /// `timeoutSeconds` so a broken server fails the test instead of hanging it.
    init(host: String = "127.0.0.1", port: UInt16, timeoutSeconds: Int = 10, source: String? = nil) throws {
        let isIPv6 = host.contains(":")
        fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw Failure("bind to \(source)") }
        }
        let result: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        // No close() here: the instance is fully initialised, so throwing runs deinit, which
        // closes `fd`; a second close could hit a descriptor another thread just opened.
        guard result == 0 else { throw Failure("connect to \(host):\(port)") }
    }

    deinit { if fd >= 0 { close(fd) } }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { throw Failure("send") }
            offset += sent
        }
    }

    /// Sends `bytes` in `pieces` parts, pausing `pauseMicroseconds` between them to act like
    /// a slow mobile client (pacing, not synchronisation).
    func sendSlowly(_ bytes: [UInt8], pieceSize: Int, pauseMicroseconds: UInt32) throws {
        var start = 0
        while start < bytes.count {
            let end = min(start + pieceSize, bytes.count)
            try send(Array(bytes[start..<end]))
            start = end
            if start < bytes.count { usleep(pauseMicroseconds) }
        }
    }

    /// Reads one response. `bodyExpected: false` for HEAD (Content-Length without a body).
    func readResponse(bodyExpected: Bool = true) throws -> RawHTTPResponse {
        while true {
            if let end = headerEnd() {
                let head = String(decoding: buffered[..<end], as: UTF8.self)
                var lines = head.split(separator: "\r\n").map(String.init)
                let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                    throw Failure("malformed status line in \(head)", errno: 0)
                }
                let headers = lines.compactMap { line -> (String, String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]),
                            String(line[line.index(after: colon)...].drop { $0 == " " }))
                }
                let response = RawHTTPResponse(status: status, headers: headers, body: [])
                let length = bodyExpected ? Int(response.header("Content-Length") ?? "0") ?? 0 : 0
                buffered.removeFirst(end + 4)
                while buffered.count < length {
                    guard try fill() else { throw Failure("connection closed inside the body", errno: 0) }
                }
                let body = Array(buffered.prefix(length))
                buffered.removeFirst(length)
                return RawHTTPResponse(status: status, headers: headers, body: body)
            }
            guard try fill() else { throw Failure("connection closed before a response", errno: 0) }
        }
    }

    /// Whether the server closed (or reset) the connection without sending anything more.
    func isClosedByPeer() -> Bool {
        if !buffered.isEmpty { return false }
        do { return try !fill() } catch { return false }  // timed out: still open
    }

    /// Whether the server closes (or resets) the connection within `milliseconds`, without
    /// sending anything more; false if it is still open then.
    func isClosedByPeer(withinMilliseconds milliseconds: Int) -> Bool {
        if !buffered.isEmpty { return false }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(milliseconds)) > 0 else { return false }
        do { return try !fill() } catch { return true }
    }

    private func headerEnd() -> Int? {
        guard buffered.count >= 4 else { return nil }
        for index in 0...(buffered.count - 4)
        where buffered[index] == 13 && buffered[index + 1] == 10 && buffered[index + 2] == 13
            && buffered[index + 3] == 10
        {
            return index
        }
        return nil
    }

    /// Reads more bytes; false on orderly close or reset.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffered.append(contentsOf: chunk[..<count])
                return true
            }
            if count == 0 { return false }
            if errno == EINTR { continue }
            if errno == ECONNRESET { return false }
            throw Failure("recv")
        }
    }

    /// One request on a fresh connection.
    static func exchange(port: UInt16, _ request: String, host: String = "127.0.0.1") throws -> RawHTTPResponse {
        let client = try RawHTTPClient(host: host, port: port)
        try client.send(request)
        return try client.readResponse(bodyExpected: !request.hasPrefix("HEAD "))
    }

    /// Whether a TCP connect to `port` is refused right now.
    static func connectionRefused(port: UInt16) -> Bool {
        do {
            _ = try RawHTTPClient(port: port, timeoutSeconds: 2)
            return false
        } catch let failure as Failure {
            return failure.code == ECONNREFUSED
        } catch {
            return false
        }
    }
}

/// A parsed response as the raw client saw it.
struct RawHTTPResponse {
    let status: Int
    let headers: [(String, String)]
    let body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var bodyText: String { String(decoding: body, as: UTF8.self) }
}
