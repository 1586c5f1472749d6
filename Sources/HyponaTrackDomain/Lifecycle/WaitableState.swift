import Synchronization

/// A small state that threads wait on: a `Mutex` holds it, a condition variable wakes the
/// waiters when it changes. Changes and a waiter's check both happen under the condition's
/// lock, so a change between the check and the wait is never lost. The one waiting primitive
/// of the lifecycle (stop signals, finished services).
public final class WaitableState<State: Sendable>: Sendable {
    private let condition = MonotonicCondition()
    private let state: Mutex<State>

    public init(_ initial: State) { state = Mutex(initial) }

    /// The state now, without waiting.
    public func read<R: Sendable>(_ body: (State) -> R) -> R { state.withLock { body($0) } }

    /// Changes the state and wakes every waiter.
    public func change(_ body: (inout State) -> Void) {
        condition.lock()
        state.withLock { body(&$0) }
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `ready` returns a value (it may change the state, e.g. consume a wake-up)
    /// or the deadline passes; nil then.
    public func wait<R: Sendable>(until deadline: MonotonicDeadline, for ready: (inout State) -> R?) -> R? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = state.withLock({ ready(&$0) }) { return result }
            guard condition.wait(until: deadline) else { return state.withLock { ready(&$0) } }
        }
    }
}
