import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Request identifiers: 16 lowercase hex digits from the system CSPRNG (`/dev/urandom`), so
/// they cannot be guessed or collide across restarts the way a counter would. The random bits
/// are drawn 4 KiB at a time (one system call per 512 requests instead of one per request),
/// and each value is handed out once.
enum RequestID {
    private struct Pool {
        var values = [UInt64](repeating: 0, count: RequestID.batch)
        var next = RequestID.batch
    }

    private static let batch = 512
    private static let pool = Mutex(Pool())

    static func make() -> String {
        let value = pool.withLock { pool in
            if pool.next == batch {
                pool.values.withUnsafeMutableBytes { refill($0) }
                pool.next = 0
            }
            defer { pool.next += 1 }
            return pool.values[pool.next]
        }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The system CSPRNG through `/dev/urandom` (`getrandom` is not in Swift's Glibc module);
    /// should that fail, the standard library's generator (which calls `getrandom` per value)
    /// fills the rest.
    private static func refill(_ buffer: UnsafeMutableRawBufferPointer) {
        var filled = 0
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            while filled < buffer.count {
                let n = read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                if n > 0 { filled += n; continue }
                if n < 0, errno == EINTR { continue }
                break
            }
            close(fd)
        }
        var generator = SystemRandomNumberGenerator()
        for i in filled..<buffer.count { buffer[i] = generator.next() }
    }
}
