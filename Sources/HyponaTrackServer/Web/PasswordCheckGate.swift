import Dispatch
import Foundation
import Synchronization

/// Bounds the console's password checks. PBKDF2 at 600,000 rounds costs ≈ 0.3–0.8 s of one core
/// per sign-in, on a request handler thread; the per-IP bucket and the per-name lockout limit
/// each source and each name, not a burst from many addresses, which unbounded would hold every
/// handler thread and both cores (a review measured `/healthz` at 2.2 s behind 30 failed sign-ins).
/// `concurrent` checks run at once, `waiting` more queue for a turn; one beyond is refused at
/// once (the caller answers 503 with Retry-After), holding no thread and no core.
final class PasswordCheckGate: Sendable {
    let concurrent: Int
    let waiting: Int
    private let turns: DispatchSemaphore
    private let admitted = Atomic<Int>(0)
    /// Called when a check is admitted, before it waits for its turn (tests wait on it).
    private let onAdmitted: (@Sendable () -> Void)?

    init(concurrent: Int, waiting: Int, onAdmitted: (@Sendable () -> Void)? = nil) {
        precondition(concurrent >= 1 && waiting >= 0)
        self.concurrent = concurrent
        self.waiting = waiting
        self.onAdmitted = onAdmitted
        turns = DispatchSemaphore(value: concurrent)
    }

    /// Half the cores at once (one to four), four waiting: at most eight of the 16 handler
    /// threads are ever in a sign-in.
    static func forThisMachine() -> PasswordCheckGate {
        PasswordCheckGate(concurrent: min(4, max(1, ProcessInfo.processInfo.activeProcessorCount / 2)), waiting: 4)
    }

    /// Checks running or waiting now.
    var inUse: Int { admitted.load(ordering: .relaxed) }

    /// `body` when its turn comes; nil at once when `concurrent + waiting` checks are in already.
    func run<T>(_ body: () throws -> T) rethrows -> T? {
        guard admitted.add(1, ordering: .acquiringAndReleasing).newValue <= concurrent + waiting else {
            admitted.subtract(1, ordering: .acquiringAndReleasing)
            return nil
        }
        defer { admitted.subtract(1, ordering: .acquiringAndReleasing) }
        onAdmitted?()
        turns.wait()
        defer { turns.signal() }
        return try body()
    }
}
