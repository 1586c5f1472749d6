#if canImport(Glibc)
import Glibc
#endif

/// Tells systemd about the service's state (`Type=notify`) without linking libsystemd.
///
/// The sd_notify protocol: when systemd sets `$NOTIFY_SOCKET`, send the state
/// (`READY=1`, `STOPPING=1`, `WATCHDOG=1`, `STATUS=…`, newline-separated) as one datagram on
/// an `AF_UNIX`/`SOCK_DGRAM` socket to that address; a leading `@` means the Linux abstract
/// namespace. When the variable is unset the service is not supervised and this is a no-op.
public struct SystemdNotifier: Sendable {
    /// The socket address, as in `$NOTIFY_SOCKET`; nil disables notifications.
    public let socketPath: String?

    /// A notifier for an explicit address (tests, or a value read earlier).
    public init(socketPath: String?) {
        self.socketPath = socketPath.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A notifier for `$NOTIFY_SOCKET` as it is now.
    public static var fromEnvironment: SystemdNotifier {
        SystemdNotifier(socketPath: getenv("NOTIFY_SOCKET").map { String(cString: $0) })
    }

    /// Sends `state` to `$NOTIFY_SOCKET`, e.g. `SystemdNotifier.notify("READY=1")`.
    /// - Returns: false when `$NOTIFY_SOCKET` is unset (nothing to do).
    @discardableResult
    public static func notify(_ state: String) throws(HTTPServerError) -> Bool {
        try fromEnvironment.notify(state)
    }

    /// Half of `$WATCHDOG_USEC`, the interval at which to send `WATCHDOG=1` (systemd's
    /// advice), or nil when the watchdog is off or meant for another process
    /// (`$WATCHDOG_PID` set to a different PID).
    public static var watchdogInterval: Duration? {
        if let pid = getenv("WATCHDOG_PID").flatMap({ Int32(String(cString: $0)) }), pid != getpid() {
            return nil
        }
        guard let usec = getenv("WATCHDOG_USEC").flatMap({ Int64(String(cString: $0)) }), usec > 0 else {
            return nil
        }
        return .microseconds(usec / 2)
    }

    /// Sends `state` as one datagram.
    /// - Returns: false when there is no socket to notify.
    /// - Throws: ``HTTPServerError`` with code `.systemCall` if the address is too long or
    ///   the send fails (systemd gone, permissions).
    @discardableResult
    public func notify(_ state: String) throws(HTTPServerError) -> Bool {
        guard let socketPath else { return false }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(socketPath.utf8)
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }  // abstract namespace
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else {
            throw HTTPServerError(.systemCall, "NOTIFY_SOCKET path is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        // An abstract name's length is exact (a trailing NUL would become part of it); a path
        // gets its terminating NUL, which is already zero in the fresh struct.
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        let length = pathOffset + pathBytes.count + (pathBytes.first == 0 ? 0 : 1)

        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HTTPServerError(.systemCall, "socket(AF_UNIX) failed", errno: errno) }
        defer { _ = close(fd) }
        let payload = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                payload.withUnsafeBytes { bytes in
                    sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), socketAddress,
                           socklen_t(length))
                }
            }
        }
        guard sent == payload.count else {
            throw HTTPServerError(.systemCall, "sending \"\(state)\" to NOTIFY_SOCKET \(socketPath) failed",
                                  errno: errno)
        }
        return true
    }
}
