#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts requests between their first byte and libmicrohttpd's completion notice, and lets
/// `stop` wait (bounded) for the count to reach zero.
///
/// A pthread condition variable on `CLOCK_MONOTONIC`, because `Synchronization.Mutex` has no
/// condition and the wait must not jump with wall-clock changes.
final class InFlightCounter: @unchecked Sendable {
    // Heap-allocated: pthread objects must not move, which a Swift stored property may.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var count = 0  // guarded by `mutex`

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

    /// The current number of requests in flight.
    var value: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return count
    }

    func increment() {
        pthread_mutex_lock(mutex)
        count += 1
        pthread_mutex_unlock(mutex)
    }

    func decrement() {
        pthread_mutex_lock(mutex)
        count -= 1
        if count == 0 { pthread_cond_broadcast(condition) }
        pthread_mutex_unlock(mutex)
    }

    /// Blocks until the count is zero or `timeout` has passed; true when it reached zero.
    func waitUntilZero(timeout: Duration) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let (seconds, attoseconds) = max(timeout, .zero).components
        let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
        deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000

        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while count > 0 {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
        }
        return count == 0
    }
}
