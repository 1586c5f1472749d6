import Glibc

/// Why a request got no HTTP response.
enum TransportError: Error, CustomStringConvertible {
    /// `connect` failed (errno).
    case connectFailed(Int32)
    /// No (complete) response within the receive timeout.
    case timeout
    /// The server closed the connection or reset it before the response was complete.
    case closed
    /// `send` or `recv` failed with another errno.
    case io(Int32)
    /// The response could not be parsed (or uses chunked encoding, which this client does not read).
    case malformed(String)

    var description: String {
        switch self {
        case .connectFailed(let e): return "connect failed (\(String(cString: strerror(e))))"
        case .timeout: return "timeout"
        case .closed: return "connection closed by server"
        case .io(let e): return "I/O error (\(String(cString: strerror(e))))"
        case .malformed(let why): return "malformed response (\(why))"
        }
    }
}

/// One HTTP response as read off the wire.
struct HTTPReply {
    var status: Int
    var body: [UInt8]
    /// False when the server said `Connection: close` (the connection is then unusable).
    var keepAlive: Bool
}

/// A blocking HTTP/1.1 client connection to a loopback port over one TCP socket, kept alive
/// across requests. Requests are sent whole; responses are read by their status line and
/// `Content-Length`. Not thread-safe: each load-generator thread owns one.
final class HTTPConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    /// Connects to `127.0.0.1:port`; send and receive give up after `timeoutSeconds`.
    init(port: UInt16, timeoutSeconds: Int = 10) throws(TransportError) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .io(errno) }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = Loopback.address(port: port)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // No close here: every stored property is set, so throwing runs `deinit`, which closes.
        guard rc == 0 else { throw .connectFailed(errno) }
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Sends a complete request and reads its response.
    func roundTrip(_ request: [UInt8]) throws(TransportError) -> HTTPReply {
        try send(request)
        return try readResponse()
    }

    /// Builds and sends a request with an optional body; `headers` are extra header lines.
    func request(_ method: String, _ path: String, headers: [(String, String)] = [],
                 body: [UInt8] = []) throws(TransportError) -> HTTPReply {
        try roundTrip(Self.encode(method, path, headers: headers, body: body))
    }

    /// The bytes of a request: request line, Host, the given headers, Content-Length, body.
    static func encode(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8]) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "PUT" || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    private func send(_ bytes: [UInt8]) throws(TransportError) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw .timeout }
                if errno == EPIPE || errno == ECONNRESET { throw .closed }
                throw .io(errno)
            }
            sent += n
        }
    }

    /// Reads more bytes into the buffer; throws on timeout, close or error.
    private func fill() throws(TransportError) {
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return
            }
            if n == 0 { throw .closed }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw .timeout }
            if errno == ECONNRESET { throw .closed }
            throw .io(errno)
        }
    }

    private func readResponse() throws(TransportError) -> HTTPReply {
        if start > 0 {  // bytes left over after the previous response
            buffer.removeFirst(start)
            start = 0
        }
        // Head: up to the blank line.
        var headEnd: Int?
        var searchFrom = start
        while headEnd == nil {
            headEnd = Self.find(crlfcrlfIn: buffer, from: searchFrom)
            if headEnd == nil {
                searchFrom = max(start, buffer.count - 3)
                try fill()
            }
        }
        let head = String(decoding: buffer[start..<headEnd!], as: UTF8.self)
        let bodyStart = headEnd! + 4
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw .malformed("status line \(lines.first.map { String($0.prefix(60)) } ?? "")")
        }
        var length = 0
        var keepAlive = statusParts[0] != "HTTP/1.0"
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            // Only the three headers it reads are looked at: the generator shares the cores
            // with the daemon, so its own CPU per response is kept small.
            let name = line[..<colon]
            guard name.count == 10 || name.count == 14 || name.count == 17 else { continue }
            let value = line[line.index(after: colon)...].trimmingSpaces()
            switch name.lowercased() {
            case "content-length":
                guard let n = Int(value), n >= 0 else { throw .malformed("Content-Length \(value)") }
                length = n
            case "transfer-encoding": throw .malformed("Transfer-Encoding \(value) is not supported")
            case "connection": keepAlive = value.lowercased() != "close"
            default: break
            }
        }
        while buffer.count - bodyStart < length { try fill() }
        let body = Array(buffer[bodyStart..<bodyStart + length])
        start = bodyStart + length
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        return HTTPReply(status: status, body: body, keepAlive: keepAlive)
    }

    private static func find(crlfcrlfIn bytes: [UInt8], from: Int) -> Int? {
        var i = from
        while i + 3 < bytes.count {
            if bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 { return i }
            i += 1
        }
        return nil
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (header values).
    func trimmingSpaces() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}

/// Loopback addresses and free ports.
enum Loopback {
    /// `127.0.0.1:port` as a `sockaddr_in`.
    static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        return address
    }

    /// A port that was free a moment ago: binds port 0, reads what the kernel chose, closes.
    /// (Another process could take it before the daemon binds it; the daemon then fails to
    /// start and the benchmark says so.)
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { throw BenchError("cannot bind a free port: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// A benchmark failure with a message for the reader.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
