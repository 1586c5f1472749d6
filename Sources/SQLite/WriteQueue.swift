import Foundation

/// The queue between `GroupCommitWriter`'s submitters and its writer thread.
///
/// `@unchecked Sendable`: every mutable property is read and written only while holding
/// `condition`'s lock. The writer thread sleeps on `condition` while the queue is empty (no
/// busy waiting); `close` callers sleep on it until the writer has finished.
final class WriteQueue: @unchecked Sendable {
    private enum Phase { case running, draining, closed }

    let maximumBatchSize: Int
    private let condition = NSCondition()
    private var pending: [PendingWrite] = []
    private var phase = Phase.running
    private var statistics = GroupCommitStatistics()
    private var writerThread: Thread?

    init(maximumBatchSize: Int) {
        self.maximumBatchSize = maximumBatchSize
    }

    func setWriterThread(_ thread: Thread) {
        condition.lock()
        writerThread = thread
        condition.unlock()
    }

    /// Whether the caller is the writer thread (a blocking write from there would deadlock).
    var isWriterThread: Bool {
        condition.lock()
        defer { condition.unlock() }
        return writerThread.map { $0 === Thread.current } ?? false
    }

    /// Whether `close` has been called (jobs may still be draining).
    var isClosing: Bool {
        condition.lock()
        defer { condition.unlock() }
        return phase != .running
    }

    var currentStatistics: GroupCommitStatistics {
        condition.lock()
        defer { condition.unlock() }
        var copy = statistics
        copy.pendingJobs = pending.count
        return copy
    }

    // MARK: Submitter side

    func enqueue(_ job: PendingWrite) throws {
        condition.lock()
        defer { condition.unlock() }
        guard phase == .running else {
            throw SQLiteError.misuse("the GroupCommitWriter is closed; the write was not run")
        }
        pending.append(job)
        // The writer only waits when the queue is empty, so only this transition needs a
        // wake-up. Broadcast, because `close` callers wait on the same condition.
        if pending.count == 1 { condition.broadcast() }
    }

    /// Stops accepting jobs; with `wait`, returns once every queued job has been run and the
    /// connection is closed.
    func close(wait: Bool) {
        condition.lock()
        defer { condition.unlock() }
        if phase == .running {
            phase = .draining
            condition.broadcast()
        }
        if wait {
            while phase != .closed { condition.wait() }
        }
    }

    // MARK: Writer side

    /// Blocks until jobs are queued and returns up to `maximumBatchSize` of them, oldest
    /// first; nil once the queue is closed and drained.
    func nextBatch() -> [PendingWrite]? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty && phase == .running { condition.wait() }
        if pending.isEmpty { return nil }
        if pending.count <= maximumBatchSize {
            defer { pending = [] }
            return pending
        }
        let batch = Array(pending.prefix(maximumBatchSize))
        pending.removeFirst(maximumBatchSize)
        return batch
    }

    /// Records a finished batch; jobs that never ran go back to the front of the queue.
    func record(_ result: GroupCommitBatch.Result) {
        condition.lock()
        defer { condition.unlock() }
        if result.committed {
            statistics.committedTransactions += 1
        } else {
            statistics.failedTransactions += 1
        }
        let failures = result.outcomes.filter { $0.error != nil }.count
        statistics.failedJobs += failures
        statistics.succeededJobs += result.outcomes.count - failures
        statistics.largestBatch = max(statistics.largestBatch, result.outcomes.count + result.notRun.count)
        pending.insert(contentsOf: result.notRun, at: 0)
    }

    func markClosed() {
        condition.lock()
        phase = .closed
        condition.broadcast()
        condition.unlock()
    }
}
