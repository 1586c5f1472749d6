import Synchronization

/// Set by a cancelled task, read by libcurl's progress callback on the transfer's thread.
final class CancellationFlag: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// Asks the transfer to stop at its next progress callback.
    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
}
