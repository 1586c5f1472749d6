/// Counts requests between their first byte and libmicrohttpd's completion notice, and lets
/// `stop` wait (bounded) for the count to reach zero.
final class InFlightCounter: Sendable {
    private let monitor = Monitor()
    nonisolated(unsafe) private var count = 0  // guarded by `monitor`

    /// The current number of requests in flight.
    var value: Int { monitor.locked { count } }

    func increment() { monitor.locked { count += 1 } }

    func decrement() {
        monitor.locked {
            count -= 1
            if count == 0 { monitor.broadcast() }
        }
    }

    /// Blocks until the count is zero or `timeout` has passed; true when it reached zero.
    func waitUntilZero(timeout: Duration) -> Bool {
        let deadline = Monitor.deadline(after: timeout)
        return monitor.locked {
            while count > 0 {
                if !monitor.wait(until: deadline) { break }
            }
            return count == 0
        }
    }
}
