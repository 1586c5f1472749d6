import Foundation

/// The one place the integration tests wait: polls `condition` until it holds or `timeout`
/// passes and says which. Real processes (daemon, peers) cannot take an injected clock, so
/// these tests wait on observable conditions, never for fixed times.
func poll(timeout: TimeInterval, every interval: TimeInterval = 0.02, _ condition: () throws -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if (try? condition()) == true { return true }
        if Date() >= deadline { return false }
        usleep(UInt32(interval * 1_000_000))
    }
}

/// Polls a condition until a deadline; throws when it never holds.
func waitUntil(timeout: TimeInterval = 10, _ condition: () throws -> Bool) throws {
    guard poll(timeout: timeout, condition) else { throw TestFailure("condition not met within \(timeout) s") }
}
