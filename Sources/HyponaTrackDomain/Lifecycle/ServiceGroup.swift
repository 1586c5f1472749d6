import Synchronization

/// Runs a list of background services: `start()` starts them in order, each on its own thread;
/// `stop()` stops them in reverse order (swift-service-lifecycle's graceful shutdown), waiting
/// for each up to its ``BackgroundService/stopDeadline``. A service that misses its deadline is
/// logged by name and left behind; the group carries on with the next.
///
/// Peers whose order does not matter (one delivery worker per hook) can be stopped
/// `.together`: all are asked at once and waited for against one deadline each, so n slow
/// peers cost one deadline, not n.
public final class ServiceGroup: Sendable {
    public enum StopOrder: Sendable { case reverse, together }

    private enum Phase { case idle, running([ServiceThread]), stopped }

    public let services: [any BackgroundService]
    public let order: StopOrder
    public let logger: Logger
    private let phase = Mutex(Phase.idle)

    public init(_ services: [any BackgroundService], order: StopOrder = .reverse, logger: Logger) {
        self.services = services
        self.order = order
        self.logger = logger
    }

    /// Starts every service, in order. Once only: later calls (and calls after `stop()`) do nothing.
    public func start() {
        phase.withLock { phase in
            guard case .idle = phase else { return }
            phase = .running(services.map { service in
                defer { logger.info("service started", ["service": service.name]) }
                return ServiceThread.start(service)
            })
        }
    }

    /// The services whose `run()` has returned while the group runs, i.e. before any stop was
    /// asked: a worker that died. Empty before `start()` and after `stop()`.
    public var finishedEarly: [String] {
        phase.withLock { phase in
            guard case .running(let threads) = phase else { return [] }
            return threads.filter(\.hasFinished).map(\.service.name)
        }
    }

    /// Stops the started services (see the type's description) and returns the names of those
    /// that missed their deadline. A group never started has nothing to stop.
    @discardableResult
    public func stop() -> [String] {
        let threads = phase.withLock { phase -> [ServiceThread] in
            defer { phase = .stopped }
            if case .running(let threads) = phase { return threads }
            return []
        }
        var late: [String] = []
        func report(_ service: any BackgroundService, stopped: Bool) {
            guard stopped else {
                logger.error("service did not stop within its deadline; carrying on without it",
                             ["service": service.name, "deadline_s": String(service.stopDeadline)])
                return late.append(service.name)
            }
            logger.info("service stopped", ["service": service.name])
        }
        switch order {
        case .reverse:
            for thread in threads.reversed() {
                report(thread.service, stopped: thread.stop(deadline: thread.service.stopDeadline))
            }
        case .together:
            let deadlines = threads.map { thread -> MonotonicDeadline in
                thread.service.requestStop()
                return .after(seconds: thread.service.stopDeadline)
            }
            for (thread, deadline) in zip(threads, deadlines) {
                report(thread.service, stopped: thread.waitUntilFinished(by: deadline))
            }
        }
        return late
    }
}
