#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with one condition variable on `CLOCK_MONOTONIC`: the server's one waiting
/// primitive (the in-flight count, the handler queue, the deadline sweeper), because
/// `Synchronization.Mutex` has no condition and waits must not jump with wall-clock changes.
final class Monitor: @unchecked Sendable {
    // Heap-allocated: pthread objects must not move, which a Swift stored property may.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the mutex.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a signal; only while holding the mutex (inside `locked`).
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a signal or `deadline`; false on timeout. Only inside `locked`.
    @discardableResult
    func wait(until deadline: timespec) -> Bool {
        var d = deadline
        return pthread_cond_timedwait(condition, mutex, &d) != ETIMEDOUT
    }

    func broadcast() { pthread_cond_broadcast(condition) }
    func signal() { pthread_cond_signal(condition) }

    /// The monotonic time `after` from now, for `wait(until:)`.
    static func deadline(after: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = max(after, .zero).components
        let nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        now.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        now.tv_nsec = nanoseconds % 1_000_000_000
        return now
    }
}
