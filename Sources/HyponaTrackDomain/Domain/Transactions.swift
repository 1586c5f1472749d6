import SQLite

/// The one way services write: a group-commit transaction, answered only after COMMIT, after
/// which the REDCap sync and the hook workers are woken for the rows it may have queued.
struct Transactions: Sendable {
    let database: Database
    let wakeSync: @Sendable () -> Void
    let wakeHooks: @Sendable () -> Void

    func write<T>(_ job: (Connection) throws -> T) throws -> T {
        let result = try database.write(job)
        wakeSync()
        wakeHooks()
        return result
    }

    /// `write` without waiting: `completion` runs on the writer thread after the COMMIT (keep
    /// it short, the next batch waits for it), the workers already woken.
    func submit<T>(_ job: @escaping @Sendable (Connection) throws -> T,
                   completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        database.submit(job) { [wakeSync, wakeHooks] result in
            wakeSync()
            wakeHooks()
            completion(result)
        }
    }

    func read<T>(_ job: (Connection) throws -> T) throws -> T { try database.read(job) }

    /// A read whose time grows with the database, on the long-read pool (`Database.longRead`).
    func longRead<T>(_ job: (Connection) throws -> T) throws -> T { try database.longRead(job) }
}
