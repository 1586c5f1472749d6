import Glibc

/// The monotonic clock (`CLOCK_MONOTONIC`) in nanoseconds: cheap enough to read around every
/// request, and immune to wall-clock steps.
enum Monotonic {
    /// Nanoseconds since an arbitrary fixed point.
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Seconds between two readings (negative when `end` is earlier).
    static func seconds(from start: UInt64, to end: UInt64) -> Double {
        Double(Int64(bitPattern: end &- start)) / 1e9
    }

    /// A reading `seconds` after `start`.
    static func adding(_ seconds: Double, to start: UInt64) -> UInt64 {
        start + UInt64(seconds * 1e9)
    }

    /// Sleeps for `seconds` (nanosleep, restarted after signals); nothing if not positive.
    static func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
