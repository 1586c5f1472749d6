import Foundation

/// A bare TCP client for attacks: connects from a chosen loopback address (any 127.x.y.z on
/// Linux), sends whatever bytes it is told, and can tell whether the server closed it.
final class RawSocket {
    private let fd: Int32

    init(port: Int, source: String = "127.0.0.1") throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let ok = withUnsafePointer(to: &local) { l in
            l.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0 && withUnsafePointer(to: &remote) { r in
            r.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
        // No close() here: the instance is fully initialised, so throwing runs deinit, which
        // closes `fd`; a second close could hit a descriptor another test just opened.
        guard ok else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    deinit { close(fd) }

    /// Sends `text`; false if the connection is gone.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Whether the server closed (or reset) the connection within `milliseconds`; data that
    /// arrives instead (a response) is read and ignored.
    func isClosed(withinMilliseconds milliseconds: Int32 = 0) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return n == 0 || (n < 0 && errno != EAGAIN)
    }

    /// Everything the server sends until it closes the connection, or what it sent satisfies
    /// `enough`, or `milliseconds` pass; and whether it closed.
    func receive(untilClosedWithinMilliseconds milliseconds: Int, orUntil enough: (String) -> Bool = { _ in false })
        -> (text: String, closed: Bool) {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline - .now
            guard left > .zero else { return (String(decoding: received, as: UTF8.self), false) }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let waitMilliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&entry, 1, waitMilliseconds) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                received += buffer[..<n]
                let text = String(decoding: received, as: UTF8.self)
                if enough(text) { return (text, false) }
                continue
            }
            if n < 0, errno == EAGAIN || errno == EINTR { continue }
            return (String(decoding: received, as: UTF8.self), true)  // end of stream or reset
        }
    }

    /// The threads of process `pid` (`Threads:` in /proc/PID/status).
    static func threads(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }) else { return nil }
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))
    }
}
