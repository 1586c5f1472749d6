import Foundation

/// One service running on a thread of its own. The one place HyponaTrackServer creates
/// threads: every background service runs through here (libmicrohttpd's and the database
/// writer's threads belong to their wrappers).
public final class ServiceThread: Sendable {
    public let service: any BackgroundService
    private let finished = WaitableState(false)

    private init(_ service: any BackgroundService) { self.service = service }

    /// Starts `service.run()` on a new thread named after the service.
    public static func start(_ service: any BackgroundService) -> ServiceThread {
        let running = ServiceThread(service)
        let thread = Thread {
            service.run()
            running.finished.change { $0 = true }
        }
        // Linux keeps 15 bytes of a thread name (pthread_setname_np: "restricted to 16
        // characters, including the terminating null byte"); service names are ASCII.
        thread.name = String(service.name.prefix(15))
        thread.start()
        return running
    }

    /// Whether `run()` has returned.
    public var hasFinished: Bool { finished.read { $0 } }

    /// Waits until `run()` has returned or `deadline` passed; whether it returned.
    public func waitUntilFinished(by deadline: MonotonicDeadline) -> Bool {
        finished.wait(until: deadline) { $0 ? true : nil } ?? false
    }

    /// Asks the service to stop and waits up to `deadline` seconds for it; whether it stopped.
    public func stop(deadline: Double) -> Bool {
        service.requestStop()
        return waitUntilFinished(by: .after(seconds: deadline))
    }
}
