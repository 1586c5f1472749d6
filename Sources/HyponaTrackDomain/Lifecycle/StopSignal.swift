/// What a background service waits on between rounds of work: a stop request (for good) or a
/// wake-up ("there is new work", consumed by the wait it ends), on a condition variable — no
/// polling. A wake-up that arrives while the service is busy is kept for its next wait.
public final class StopSignal: Sendable {
    /// Why a wait ended.
    public enum Wakeup: Sendable, Equatable { case stopped, woken, timedOut }

    private struct Flags { var stopped = false; var woken = false }
    private let flags = WaitableState(Flags())

    public init() {}

    public var isStopRequested: Bool { flags.read(\.stopped) }

    /// Asks the service to stop; every wait, now or later, returns at once.
    public func requestStop() { flags.change { $0.stopped = true } }

    /// Cuts the current (or next) wait short.
    public func wake() { flags.change { $0.woken = true } }

    /// Waits up to `seconds` for a stop request or a wake-up; true when stop was requested.
    @discardableResult
    public func wait(seconds: Double) -> Bool { waitForWakeup(seconds: seconds) == .stopped }

    /// Waits until a stop request (never times out).
    public func waitForStop() { _ = pause(seconds: .infinity) }

    /// Like `wait(seconds:)`, saying whether a wake-up or the time ended it.
    public func waitForWakeup(seconds: Double) -> Wakeup {
        flags.wait(until: .after(seconds: seconds)) { f -> Wakeup? in
            if f.stopped { return .stopped }
            guard f.woken else { return nil }
            f.woken = false
            return .woken
        } ?? .timedOut
    }

    /// Waits up to `seconds` for a stop request only, leaving wake-ups for the next wait; true
    /// when stop was requested.
    public func pause(seconds: Double) -> Bool {
        flags.wait(until: .after(seconds: seconds)) { $0.stopped ? true : nil } ?? false
    }
}
