import Foundation
import Synchronization

/// A stand-in for systemd's notification socket: an `AF_UNIX` datagram socket bound to a fresh
/// path (give it to the daemon as `NOTIFY_SOCKET`). A reader thread collects every datagram, one
/// sd_notify message each, in arrival order.
final class NotifySocket: Sendable {
    let path: String
    private let fd: Int32
    private let received = Mutex<[String]>([])
    private let closed = Mutex(false)

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString.prefix(8)).sock").path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket(AF_UNIX, SOCK_DGRAM) failed") }
        // A receive timeout, so the reader notices `close()` without a datagram arriving.
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw TestFailure("socket path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { Glibc.close(fd); throw TestFailure("bind \(path): errno \(errno)") }
        let thread = Thread { [self] in readUntilClosed() }
        thread.start()
    }

    deinit { unlink(path) }

    /// Stops the reader; call once the daemon is done with the socket.
    func close() {
        closed.withLock { $0 = true }
    }

    /// Every message so far.
    var messages: [String] { received.withLock { $0 } }

    /// How many messages so far are exactly `message`.
    func count(_ message: String) -> Int { messages.filter { $0 == message }.count }

    private func readUntilClosed() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !closed.withLock({ $0 }) {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { received.withLock { $0.append(String(decoding: buffer[..<n], as: UTF8.self)) } }
        }
        Glibc.close(fd)
    }
}
