import Dispatch
import Foundation

/// Serialises all writes to one database through one writer thread and commits them in
/// groups, so many small concurrent writes share one fsync.
///
/// With `synchronous=FULL` every COMMIT waits for an fsync of the WAL (about 2,000 per second
/// on the server's disk). Submitters on many threads (the HTTP server's pool) queue small
/// jobs; the writer thread takes everything queued so far (at most `maximumBatchSize`), runs
/// it in one `BEGIN IMMEDIATE` transaction, each job inside its own `SAVEPOINT`, and commits
/// once. A job that throws is rolled back to its savepoint alone and its submitter gets its
/// error; the others commit. Each submitter resumes only after the COMMIT that made its job
/// durable has returned — "acknowledged" means "on disk". If BEGIN or COMMIT fails, every job
/// that would have succeeded gets that error instead.
///
/// Jobs run on the writer thread with its `Connection`. They should be short (they delay
/// everyone queued behind them), must not `BEGIN`/`COMMIT`/`ROLLBACK` themselves (nested
/// `transaction { }` calls become savepoints and are fine), and must not call `write` on the
/// same writer (that would wait for itself; it throws `SQLITE_MISUSE` instead).
///
/// `close()` stops accepting jobs, runs the ones already queued, closes the connection and
/// returns; `deinit` does the same.
public final class GroupCommitWriter: Sendable {
    /// Default cap on jobs per transaction: large enough to amortise the fsync, small enough
    /// that the first job of a batch waits at most a few milliseconds for the last one.
    public static let defaultMaximumBatchSize = 256

    private let queue: WriteQueue

    /// Starts the writer thread, which takes ownership of `connection` (a writable connection
    /// not in a transaction; run migrations on it first). The caller must not use the
    /// connection afterwards; the writer closes it in `close()`.
    public init(connection: sending Connection, maximumBatchSize: Int = GroupCommitWriter.defaultMaximumBatchSize) {
        precondition(maximumBatchSize >= 1, "maximumBatchSize must be at least 1")
        let queue = WriteQueue(maximumBatchSize: maximumBatchSize)
        self.queue = queue
        // The connection moves to the writer thread and is used only there from now on.
        let transfer = ConnectionTransfer(connection: connection)
        let thread = Thread {
            let db = transfer.connection
            while let batch = queue.nextBatch() {
                let result = GroupCommitBatch.run(batch, on: db)
                queue.record(result)
                // Resume submitters only after the statistics are updated and, above all,
                // after COMMIT returned.
                for outcome in result.outcomes { outcome.job.complete(outcome.error) }
            }
            db.close()
            queue.markClosed()
        }
        thread.name = "sqlite-group-commit"
        queue.setWriterThread(thread)
        thread.start()
    }

    /// Opens a writable `Connection` at `path` and starts a writer on it.
    public convenience init(path: String, options: Connection.Options = Connection.Options(),
                            maximumBatchSize: Int = GroupCommitWriter.defaultMaximumBatchSize) throws {
        self.init(connection: try Connection(path: path, options: options), maximumBatchSize: maximumBatchSize)
    }

    deinit {
        queue.close(wait: !queue.isWriterThread)
    }

    /// Runs `job` in the next group transaction and returns its value once that transaction
    /// has committed. Blocks the calling thread (meant for thread-pool callers such as the
    /// HTTP server's handlers); safe to call from any number of threads at once.
    ///
    /// Throws the job's own error (its changes rolled back, batch-mates unaffected), or the
    /// error that prevented the commit, or `SQLITE_MISUSE` after `close()` or when called
    /// from inside a job.
    @discardableResult
    public func write<T>(_ job: (Connection) throws -> T) throws -> T {
        if queue.isWriterThread {
            throw SQLiteError.misuse("GroupCommitWriter.write called from inside a write job would wait for itself")
        }
        // The job does not escape this call: the writer releases it before `completion`
        // signals, and this frame waits for that signal (checked by withoutActuallyEscaping).
        return try withoutActuallyEscaping(job) { job in
            let box = ResultBox<T>()
            let done = DispatchSemaphore(value: 0)
            let pending = PendingWrite(
                body: { db in box.result = .success(try job(db)) },
                completion: { error in
                    if let error { box.result = .failure(error) }
                    done.signal()
                })
            do {
                try queue.enqueue(pending)
            } catch {
                pending.complete(error)
            }
            done.wait()
            return try box.take()
        }
    }

    /// Queues `job` and returns at once; `completion` gets its value (or error) on the writer
    /// thread once the transaction has committed (or failed), exactly as `write` would have
    /// returned it. No thread waits for the commit, so a caller can answer its client from
    /// `completion`. Keep `completion` short: the next batch waits for it. Called from inside
    /// a job, `completion` gets `SQLITE_MISUSE` (the job would only run after its own batch).
    public func submit<T>(_ job: @escaping @Sendable (Connection) throws -> T,
                          completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        if queue.isWriterThread {
            return completion(.failure(SQLiteError.misuse("GroupCommitWriter.submit called from inside a write job")))
        }
        let box = ResultBox<T>()
        let pending = PendingWrite(
            body: { db in box.result = .success(try job(db)) },
            completion: { error in completion(error.map { .failure($0) } ?? Result { try box.take() }) })
        do {
            try queue.enqueue(pending)
        } catch {
            pending.complete(error)
        }
    }

    /// Async form of `write`: suspends (without blocking a thread) until the job's transaction
    /// has committed. Once queued, the job runs and commits even if the task is cancelled, so
    /// that a cancelled caller never believes a committed write did not happen.
    @discardableResult
    public func write<T: Sendable>(_ job: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            submit(job) { continuation.resume(with: $0) }
        }
    }

    /// Counters since start (committed transactions, jobs, largest batch, queue depth).
    public var statistics: GroupCommitStatistics { queue.currentStatistics }

    /// Whether `close()` has been called; from then on `write` throws (queued jobs still run).
    public var isClosed: Bool { queue.isClosing }

    /// Stops accepting writes, runs every job already queued, closes the connection, then
    /// returns. Later `write` calls throw `SQLITE_MISUSE`. Idempotent; from inside a job it
    /// only stops intake (waiting there would deadlock).
    public func close() {
        queue.close(wait: !queue.isWriterThread)
    }
}

/// Carries the writer's connection into the writer thread's closure. `@unchecked Sendable`
/// because ownership moves: `GroupCommitWriter.init` takes the connection as `sending` and
/// never touches it after starting the thread.
private struct ConnectionTransfer: @unchecked Sendable {
    let connection: Connection
}

/// The value a job produced, written on the writer thread and read by the submitter after
/// the completion signal (semaphore or continuation), which orders the two accesses.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?

    func take() throws -> T {
        guard let result else {
            throw SQLiteError.misuse("internal error: write completed without a result")
        }
        return try result.get()
    }
}
