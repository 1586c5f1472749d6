/// A long-running part of the daemon: the hook delivery, the REDCap sync, the scheduler, the
/// HTTP server. Modelled on swift-service-lifecycle's `Service`, but on a thread of its own
/// rather than a task: the workers block in SQLite, libcurl and child processes, which would
/// starve the cooperative pool.
///
/// `run()` is called once, on the service's thread (``ServiceThread``), and returns when the
/// service has stopped; ``ServiceGroup`` starts services in order and stops them in reverse,
/// each within its ``stopDeadline``.
public protocol BackgroundService: Sendable {
    /// Names the service in logs and its thread (`ps -L`; the first 15 bytes on Linux).
    var name: String { get }
    /// Seconds the group waits, after `requestStop()`, for `run()` to return.
    var stopDeadline: Double { get }
    /// Does the work until asked to stop, blocking the calling thread; returns once stopped.
    func run()
    /// Asks `run()` to return soon (after the request in flight); returns at once.
    func requestStop()
}
