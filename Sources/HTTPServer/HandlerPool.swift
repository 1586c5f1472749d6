/// A fixed set of threads that run handlers, so a request that blocks (on its database
/// commit, say) holds one of them and never one of libmicrohttpd's polling threads; requests
/// beyond the pool's size wait in the queue, holding no thread at all (their connections are
/// suspended).
final class HandlerPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct Queue {
        var jobs: [Job] = []
        var head = 0
        var closed = false

        mutating func pop() -> Job? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            if head > 64, head * 2 > jobs.count { jobs.removeFirst(head); head = 0 }
            return job
        }
    }

    private let monitor = Monitor()
    nonisolated(unsafe) private var queue = Queue()  // guarded by `monitor`
    nonisolated(unsafe) private var threads: [ServerThread] = []  // written once in init

    init(threads count: Int, name: String) {
        threads = (0..<count).map { index in ServerThread(name: "\(name)-\(index)") { [self] in work() } }
    }

    /// Jobs waiting for a thread (a gauge).
    var waiting: Int { monitor.locked { queue.jobs.count - queue.head } }

    /// Queues `job`; false (and the job is not run) once the pool is closed.
    @discardableResult
    func submit(_ job: @escaping Job) -> Bool {
        monitor.locked {
            guard !queue.closed else { return false }
            queue.jobs.append(job)
            monitor.signal()
            return true
        }
    }

    /// Stops taking jobs and drops those that never started (their requests are answered by
    /// the server); the threads finish their running jobs. Returns how many were dropped.
    @discardableResult
    func close() -> Int {
        monitor.locked {
            queue.closed = true
            monitor.broadcast()
            var dropped = 0
            while queue.pop() != nil { dropped += 1 }
            return dropped
        }
    }

    /// Waits for every thread to finish its running job; call after `close()`.
    func join() { for thread in threads { thread.join() } }

    private func work() {
        while let job = next() { job() }
    }

    private func next() -> Job? {
        monitor.locked {
            while true {
                if let job = queue.pop() { return job }
                if queue.closed { return nil }
                monitor.wait()
            }
        }
    }
}
