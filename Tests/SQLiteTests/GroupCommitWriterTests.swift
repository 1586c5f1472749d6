import Dispatch
import Foundation
import SQLite
import Testing

@Suite struct GroupCommitWriterTests {
    private func makeWriter(_ dir: String, maximumBatchSize: Int = 256) throws -> GroupCommitWriter {
        let db = try Connection(path: dir + "/writer.sqlite")
        try db.execute("""
            CREATE TABLE jobs(id INTEGER PRIMARY KEY, thread INTEGER NOT NULL, seq INTEGER NOT NULL,
                              UNIQUE(thread, seq));
            """)
        return GroupCommitWriter(connection: db, maximumBatchSize: maximumBatchSize)
    }

    /// Occupies the writer thread with a job that waits for `release`, so that jobs submitted
    /// meanwhile are queued and will form the next batch together.
    private func holdWriter(_ writer: GroupCommitWriter) -> (release: DispatchSemaphore, done: DispatchGroup) {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = startThread {
            _ = try? writer.write { db in
                entered.signal()
                release.wait()
                try db.execute("INSERT INTO jobs(thread, seq) VALUES (?, ?)", [-1, 0])
            }
        }
        entered.wait()
        return (release, done)
    }

    @Test func concurrentJobsAreAllCommittedExactlyOnceInFewTransactions() throws {
        try withTemporaryDirectory { dir in
            let writer = try makeWriter(dir)
            let threads = 8, jobsPerThread = 200
            let results = Locked([(thread: Int, seq: Int, rowid: Int64)]())
            let failures = Locked([String]())
            runOnThreads(threads) { thread in
                for seq in 0..<jobsPerThread {
                    do {
                        let rowid = try writer.write { db -> Int64 in
                            try db.execute("INSERT INTO jobs(thread, seq) VALUES (?, ?)", [thread, seq])
                            return db.lastInsertRowID
                        }
                        results.withLock { $0.append((thread, seq, rowid)) }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            let statistics = writer.statistics
            writer.close()

            #expect(failures.current.isEmpty)
            let jobs = threads * jobsPerThread
            #expect(results.current.count == jobs)
            #expect(Set(results.current.map(\.rowid)).count == jobs)
            let db = try Connection(path: dir + "/writer.sqlite", options: .readOnly)
            #expect(try db.scalar("SELECT count(*) FROM jobs", as: Int.self) == jobs)
            // Each submitter got the rowid of its own row.
            let rows = try db.query("SELECT id, thread, seq FROM jobs")
            let byRowid = Dictionary(uniqueKeysWithValues: try rows.map { (try $0.int64("id"), (try $0.int("thread"), try $0.int("seq"))) })
            for result in results.current {
                #expect(byRowid[result.rowid]! == (result.thread, result.seq))
            }
            #expect(statistics.succeededJobs == jobs)
            #expect(statistics.failedJobs == 0)
            // Exact batching is pinned by the holding-job tests below; here only that batching happened
            // at all, which does not depend on how slow this machine's fsync is.
            #expect(statistics.committedTransactions < jobs,
                    "\(statistics.committedTransactions) commits for \(jobs) jobs, largest batch \(statistics.largestBatch)")
            #expect(statistics.largestBatch > 1)
        }
    }

    @Test func throwingJobIsRolledBackAloneAndItsBatchMatesCommit() throws {
        try withTemporaryDirectory { dir in
            let writer = try makeWriter(dir)
            let hold = holdWriter(writer)
            let outcomes = Locked([Int: Result<Int64, TestFailure>]())
            let constraintError = Locked<SQLiteError?>(nil)
            let submitters = [
                startThread {
                    let r = Result { try writer.write { db -> Int64 in
                        try db.execute("INSERT INTO jobs(thread, seq) VALUES (?, ?)", [1, 1])
                        return db.lastInsertRowID
                    } }.mapError { _ in TestFailure(tag: 1) }
                    outcomes.withLock { $0[1] = r }
                },
                startThread {
                    let r = Result { try writer.write { db -> Int64 in
                        try db.execute("INSERT INTO jobs(thread, seq) VALUES (?, ?)", [2, 1])
                        throw TestFailure(tag: 2)
                    } }.mapError { $0 as? TestFailure ?? TestFailure(tag: -2) }
                    outcomes.withLock { $0[2] = r }
                },
                startThread {
                    do {
                        try writer.write { db in
                            // Violates UNIQUE(thread, seq) with the first job: an SQLite error inside a job.
                            try db.execute("INSERT INTO jobs(thread, seq) VALUES (?, ?)", [3, 1])
                            try db.execute("INSERT INTO jobs(thread, seq) VALUES (?, ?)", [3, 1])
                        }
                    } catch let error as SQLiteError {
                        constraintError.withLock { $0 = error }
                    } catch {}
                },
                startThread {
                    let r = Result { try writer.write { db -> Int64 in
                        try db.execute("INSERT INTO jobs(thread, seq) VALUES (?, ?)", [4, 1])
                        return db.lastInsertRowID
                    } }.mapError { _ in TestFailure(tag: 4) }
                    outcomes.withLock { $0[4] = r }
                },
            ]
            #expect(waitUntil { writer.statistics.pendingJobs == 4 })
            #expect(writer.statistics.committedTransactions == 0)
            hold.release.signal()
            hold.done.wait()
            for submitter in submitters { submitter.wait() }

            let statistics = writer.statistics
            writer.close()
            #expect(statistics.committedTransactions == 2)  // the holding job's, then one for all four
            #expect(statistics.largestBatch == 4)
            #expect(statistics.succeededJobs == 3)
            #expect(statistics.failedJobs == 2)
            #expect(try outcomes.current[1]?.get() != nil)
            #expect(throws: TestFailure(tag: 2)) { try outcomes.current[2]?.get() }
            #expect(try outcomes.current[4]?.get() != nil)
            #expect(constraintError.current?.isUniqueConstraintViolation == true)

            let db = try Connection(path: dir + "/writer.sqlite", options: .readOnly)
            let threadsWithRows = try db.query("SELECT thread FROM jobs ORDER BY thread").map { try $0.int("thread") }
            #expect(threadsWithRows == [-1, 1, 4])
        }
    }

    @Test func nestedTransactionInsideAJobBecomesASavepoint() throws {
        try withTemporaryDirectory { dir in
            let writer = try makeWriter(dir)
            try writer.write { db in
                try db.execute("INSERT INTO jobs(thread, seq) VALUES (?, ?)", [1, 1])
                try? db.transaction {
                    try db.execute("INSERT INTO jobs(thread, seq) VALUES (?, ?)", [1, 2])
                    throw TestFailure(tag: 1)
                }
                try db.transaction {
                    try db.execute("INSERT INTO jobs(thread, seq) VALUES (?, ?)", [1, 3])
                }
            }
            writer.close()
            let db = try Connection(path: dir + "/writer.sqlite", options: .readOnly)
            #expect(try db.query("SELECT seq FROM jobs ORDER BY seq").map { try $0.int("seq") } == [1, 3])
        }
    }

    @Test func batchSizeIsCapped() throws {
        try withTemporaryDirectory { dir in
            let writer = try makeWriter(dir, maximumBatchSize: 3)
            let hold = holdWriter(writer)
            let submitters = (0..<7).map { index in
                startThread {
                    _ = try? writer.write { db in
                        try db.execute("INSERT INTO jobs(thread, seq) VALUES (?, ?)", [index, 0])
                    }
                }
            }
            #expect(waitUntil { writer.statistics.pendingJobs == 7 })
            hold.release.signal()
            hold.done.wait()
            for submitter in submitters { submitter.wait() }
            let statistics = writer.statistics
            writer.close()
            #expect(statistics.largestBatch == 3)
            #expect(statistics.committedTransactions == 4)  // 1 + 3 + 3 + 1
            #expect(statistics.succeededJobs == 8)
        }
    }

    @Test func closeRunsQueuedJobsThenRefusesNewOnes() throws {
        try withTemporaryDirectory { dir in
            let writer = try makeWriter(dir)
            let hold = holdWriter(writer)
            let succeeded = Locked(0)
            let submitters = (0..<3).map { index in
                startThread {
                    if (try? writer.write({ db in
                        try db.execute("INSERT INTO jobs(thread, seq) VALUES (?, ?)", [index, 0])
                    })) != nil {
                        succeeded.withLock { $0 += 1 }
                    }
                }
            }
            #expect(waitUntil { writer.statistics.pendingJobs == 3 })
            // Release the held job only once close() has started, so the three queued jobs
            // are run by the draining writer.
            let releaser = startThread {
                _ = waitUntil { writer.isClosed }
                hold.release.signal()
            }
            writer.close()
            releaser.wait()
            hold.done.wait()
            for submitter in submitters { submitter.wait() }
            #expect(succeeded.current == 3)
            let error = #expect(throws: SQLiteError.self) { try writer.write { _ in 1 } }
            #expect(error?.isMisuse == true)
            let db = try Connection(path: dir + "/writer.sqlite", options: .readOnly)
            #expect(try db.scalar("SELECT count(*) FROM jobs", as: Int.self) == 4)
        }
    }

    @Test func writeFromInsideAJobIsRefusedInsteadOfDeadlocking() throws {
        try withTemporaryDirectory { dir in
            let writer = try makeWriter(dir)
            let inner = try writer.write { _ -> SQLiteError? in
                do {
                    try writer.write { _ in }
                    return nil
                } catch let error as SQLiteError {
                    return error
                }
            }
            #expect(inner?.isMisuse == true)
        }
    }

    @Test func asyncWritesFromManyTasksAllCommit() async throws {
        try await withTemporaryDirectory { dir in
            let writer = try makeWriter(dir)
            let rowids = try await withThrowingTaskGroup(of: Int64.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        try await writer.write { db in
                            try db.execute("INSERT INTO jobs(thread, seq) VALUES (?, ?)", [index, index])
                            return db.lastInsertRowID
                        }
                    }
                }
                var all: [Int64] = []
                for try await rowid in group { all.append(rowid) }
                return all
            }
            #expect(Set(rowids).count == 100)
            await #expect(throws: TestFailure(tag: 9)) {
                try await writer.write { _ -> Int in throw TestFailure(tag: 9) }
            }
            writer.close()
            await #expect(throws: SQLiteError.self) { try await writer.write { _ in 1 } }
        }
    }
}
