import CSQLite

/// Runs one batch of jobs in one `BEGIN IMMEDIATE` transaction, each job in its own savepoint.
enum GroupCommitBatch {
    struct Result {
        /// Jobs that ran (or were refused), with the error to report (nil = committed).
        var outcomes: [(job: PendingWrite, error: (any Error)?)]
        /// Jobs that never ran because the transaction ended under them; run them again.
        var notRun: [PendingWrite]
        /// Whether COMMIT succeeded.
        var committed: Bool
    }

    private static let savepoint = "ht_group_commit_job"

    static func run(_ batch: [PendingWrite], on db: Connection) -> Result {
        do {
            try db.execute("BEGIN IMMEDIATE TRANSACTION", [])
        } catch {
            // Could not get the write lock within the busy timeout (another process writes),
            // or the disk failed: nobody's work ran, everyone gets the error.
            return Result(outcomes: batch.map { ($0, error) }, notRun: [], committed: false)
        }

        var outcomes: [(job: PendingWrite, error: (any Error)?)] = []
        outcomes.reserveCapacity(batch.count)
        for (index, job) in batch.enumerated() {
            let error = runInSavepoint(job, on: db)
            outcomes.append((job, error))
            if !db.isInTransaction {
                // After SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM, SQLITE_BUSY or
                // SQLITE_INTERRUPT "the transaction might be rolled back automatically"
                // (https://sqlite.org/c3ref/get_autocommit.html), taking the earlier jobs'
                // work with it; a job that ran COMMIT/ROLLBACK itself has the same effect.
                let lost = SQLiteError(
                    extendedCode: SQLITE_ABORT,
                    message: "not saved: the shared transaction ended while another job of the batch ran"
                        + " (\(error.map { "\($0)" } ?? "the job ended the transaction itself"))")
                for earlier in 0..<index where outcomes[earlier].error == nil {
                    outcomes[earlier].error = lost
                }
                if error == nil { outcomes[index].error = lost }
                return Result(outcomes: outcomes, notRun: Array(batch[(index + 1)...]), committed: false)
            }
        }

        do {
            // The one fsync'd commit for the whole batch (synchronous=FULL): when it returns,
            // every job in the batch is durable, and only then are submitters resumed.
            try db.execute("COMMIT TRANSACTION", [])
        } catch {
            db.rollbackIfOpen()
            for index in outcomes.indices where outcomes[index].error == nil {
                outcomes[index].error = error
            }
            return Result(outcomes: outcomes, notRun: [], committed: false)
        }
        return Result(outcomes: outcomes, notRun: [], committed: true)
    }

    /// Runs one job between `SAVEPOINT` and `RELEASE`; if it throws, `ROLLBACK TO` undoes
    /// exactly its changes and the batch goes on (https://sqlite.org/lang_savepoint.html).
    private static func runInSavepoint(_ job: PendingWrite, on db: Connection) -> (any Error)? {
        do {
            try db.execute("SAVEPOINT \(savepoint)", [])
        } catch {
            return error
        }
        do {
            try job.run(on: db)
            try db.execute("RELEASE SAVEPOINT \(savepoint)", [])
            return nil
        } catch {
            if !db.rollbackToSavepointIfOpen(savepoint) {
                // The job's partial changes could not be undone on their own; give up the
                // whole transaction rather than commit them (handled by the caller).
                db.rollbackIfOpen()
            }
            return error
        }
    }
}
