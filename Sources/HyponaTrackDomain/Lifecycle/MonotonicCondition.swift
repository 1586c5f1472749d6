import Foundation

/// An instant on `CLOCK_MONOTONIC`, which never steps with the wall clock: an NTP correction or
/// an operator's `date -s` neither stretches nor cuts a service's wait.
public struct MonotonicDeadline: Sendable, Comparable {
    /// Nanoseconds since an arbitrary start (the boot, on Linux).
    public let nanoseconds: UInt64

    public static var now: MonotonicDeadline {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return MonotonicDeadline(nanoseconds: UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec))
    }

    /// `seconds` from now; an infinite or very long wait (over a century) is `.distantFuture`.
    public static func after(seconds: Double) -> MonotonicDeadline {
        guard seconds.isFinite, seconds < 3e9 else { return .distantFuture }
        return MonotonicDeadline(nanoseconds: now.nanoseconds + UInt64(max(0, seconds) * 1e9))
    }

    public static let distantFuture = MonotonicDeadline(nanoseconds: .max)

    public var hasPassed: Bool { self <= .now }

    public static func < (a: MonotonicDeadline, b: MonotonicDeadline) -> Bool { a.nanoseconds < b.nanoseconds }

    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }
}

/// A pthread mutex and condition variable whose timed waits run on `CLOCK_MONOTONIC`.
///
/// Foundation's `NSCondition.wait(until:)` takes a wall-clock `Date` (`pthread_cond_timedwait`
/// on the default `CLOCK_REALTIME`): a clock stepped back an hour would hold the scheduler for
/// that hour. "The clock attribute is the clock ID of the clock that shall be used to measure
/// the timeout service of pthread_cond_timedwait()" (POSIX, `pthread_condattr_setclock`).
/// The mutex and condition live at fixed heap addresses, as pthread objects must.
public final class MonotonicCondition: @unchecked Sendable {
    // @unchecked: the two pointers are set once in init and only handed to pthread calls,
    // which are thread-safe by contract.
    private let mutex = makeMutex()
    private let condition = makeCondition()

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    private static func makeMutex() -> UnsafeMutablePointer<pthread_mutex_t> {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        return mutex
    }

    /// A condition whose timed waits measure `CLOCK_MONOTONIC`.
    private static func makeCondition() -> UnsafeMutablePointer<pthread_cond_t> {
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        defer { pthread_condattr_destroy(&attributes) }
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, &attributes)
        return condition
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// With the lock held: releases it, waits for a broadcast (or a spurious wake-up) or the
    /// deadline, and holds it again. Returns false once the deadline has passed.
    public func wait(until deadline: MonotonicDeadline) -> Bool {
        guard deadline != .distantFuture else {
            pthread_cond_wait(condition, mutex)
            return true
        }
        var ts = timespec(tv_sec: Int(deadline.nanoseconds / 1_000_000_000), tv_nsec: Int(deadline.nanoseconds % 1_000_000_000))
        return pthread_cond_timedwait(condition, mutex, &ts) != ETIMEDOUT
    }
}
