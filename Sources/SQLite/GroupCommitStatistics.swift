/// Counters of a `GroupCommitWriter` since it started, for metrics and tests.
public struct GroupCommitStatistics: Sendable, Equatable {
    /// Batches whose COMMIT succeeded: the number of fsync'd transactions.
    public internal(set) var committedTransactions = 0
    /// Batches that ended without a commit (BEGIN or COMMIT failed, or SQLite rolled back).
    public internal(set) var failedTransactions = 0
    /// Jobs that returned normally and were committed.
    public internal(set) var succeededJobs = 0
    /// Jobs whose submitter received an error (their own, or their batch's).
    public internal(set) var failedJobs = 0
    /// The largest number of jobs run in one transaction.
    public internal(set) var largestBatch = 0
    /// Jobs queued and not yet taken by the writer, at the time the statistics were read.
    public internal(set) var pendingJobs = 0

    /// All zero.
    public init() {}
}
