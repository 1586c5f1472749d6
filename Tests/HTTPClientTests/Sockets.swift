#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP socket that listens but never accepts: the kernel completes the client's
/// handshake and queues the request, and nothing ever answers — a server that hangs.
final class SilentListener: Sendable {
    let fd: Int32
    let port: UInt16

    init() {
        (fd, port) = boundLoopbackSocket()
        precondition(listen(fd, 16) == 0, "listen failed")
    }

    deinit { close(fd) }

    var url: String { "http://127.0.0.1:\(port)/hang" }

    /// Whether a client connection is waiting in the backlog (the listen socket is readable).
    var hasPendingConnection: Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1
    }
}

/// A loopback port nobody listens on: bound to get a free number from the kernel, then
/// closed, so connecting is refused (`ECONNREFUSED`).
func refusedPort() -> UInt16 {
    let (fd, port) = boundLoopbackSocket()
    close(fd)
    return port
}

private func boundLoopbackSocket() -> (Int32, UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    precondition(fd >= 0, "socket failed")
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    precondition(bound, "bind failed")
    return (fd, UInt16(bigEndian: address.sin_port))
}

