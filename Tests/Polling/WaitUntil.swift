import Foundation

/// Polls `condition` until it holds or `seconds` pass: waiting on an outcome with a deadline,
/// not sleeping for a guessed duration. (Shared by the HTTP client's and server's tests.)
public func waitUntil(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(1000)
    }
    return condition()
}
