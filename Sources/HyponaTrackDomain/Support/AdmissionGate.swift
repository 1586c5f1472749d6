import Dispatch
import Foundation
import Synchronization

/// Bounds work that holds a request handler thread for a long time: `concurrent` run at once,
/// `waiting` more queue for a turn, and one beyond is refused at once (the caller throws
/// `DomainError.busy`, answered 503 with Retry-After), holding no thread. Without it a burst of
/// such requests takes every one of the `http.threads` handler threads and everyone else queues.
///
/// Two gates: the console's password checks (PBKDF2 at 600,000 rounds costs ≈ 0.3–0.8 s of one
/// core per sign-in; a review measured `/healthz` at 2.2 s behind 30 failed sign-ins from many
/// addresses, which the per-IP bucket and the per-name lockout do not stop) and the long reads
/// (`Database.longRead`: audit verify and list, exports, the report, statistics, backups; a
/// review measured a patient's `GET /v1/me/today` at p50 3.5 s behind 24 verify loops waiting
/// for the two long-read connections).
public final class AdmissionGate: Sendable {
    public let concurrent: Int
    public let waiting: Int
    private let turns: DispatchSemaphore
    private let admitted = Atomic<Int>(0)
    private let refusals = Atomic<Int>(0)
    /// Called when work is admitted, before it waits for its turn (tests wait on it).
    private let onAdmitted: (@Sendable () -> Void)?

    /// What work refused by a gate is told to wait (`Retry-After`): a turn is a second or so.
    public static let retryAfterSeconds = 2

    public init(concurrent: Int, waiting: Int, onAdmitted: (@Sendable () -> Void)? = nil) {
        precondition(concurrent >= 1 && waiting >= 0)
        self.concurrent = concurrent
        self.waiting = waiting
        self.onAdmitted = onAdmitted
        turns = DispatchSemaphore(value: concurrent)
    }

    /// Password checks: half the cores at once (one to four), four waiting, so at most eight of
    /// the 16 handler threads are ever in a sign-in.
    public static func passwordChecks() -> AdmissionGate {
        AdmissionGate(concurrent: min(4, max(1, ProcessInfo.processInfo.activeProcessorCount / 2)), waiting: 4)
    }

    /// Long reads: as many at once as there are long-read connections, and together with those
    /// waiting never more than a quarter of the handler threads (at least one), nor more than
    /// twice the connections: 2 + 2 of the default 16 threads, 1 + 0 of 4. A read waiting
    /// behind more than two turns would wait seconds for a connection a retry gets as soon.
    public static func longReads(handlerThreads threads: Int, connections: Int) -> AdmissionGate {
        let places = min(2 * connections, max(1, threads / 4))
        let concurrent = min(connections, places)
        return AdmissionGate(concurrent: concurrent, waiting: places - concurrent)
    }

    /// Work running or waiting now.
    public var inUse: Int { admitted.load(ordering: .relaxed) }
    /// Work refused since start.
    public var refused: Int { refusals.load(ordering: .relaxed) }

    /// `body` when its turn comes; nil at once when `concurrent + waiting` are in already.
    public func run<T>(_ body: () throws -> T) rethrows -> T? {
        guard admitted.add(1, ordering: .acquiringAndReleasing).newValue <= concurrent + waiting else {
            admitted.subtract(1, ordering: .acquiringAndReleasing)
            refusals.add(1, ordering: .relaxed)
            return nil
        }
        defer { admitted.subtract(1, ordering: .acquiringAndReleasing) }
        onAdmitted?()
        turns.wait()
        defer { turns.signal() }
        return try body()
    }
}
