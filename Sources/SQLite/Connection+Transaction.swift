extension Connection {
    /// Runs `body` in a transaction: `BEGIN <kind>`, then `COMMIT` if `body` returns, or
    /// `ROLLBACK` if it throws (the error is rethrown). A failed `COMMIT` is rolled back and
    /// thrown too, so on return the work is committed and on throw nothing of it is.
    ///
    /// Writes must use `.immediate` (the default): a deferred transaction takes the write lock
    /// only at its first write, and if another connection committed in between, that upgrade
    /// fails with `SQLITE_BUSY` without the busy handler being invoked
    /// (https://sqlite.org/lang_transaction.html#deferred_immediate_and_exclusive_transactions).
    ///
    /// **Nesting.** Called while a transaction is already open (e.g. inside a
    /// `GroupCommitWriter` job), it runs `body` in a `SAVEPOINT` instead: a throw rolls back
    /// only the savepoint, and `kind` is ignored because the outer transaction already decided
    /// the locking.
    @discardableResult
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        if isInTransaction {
            return try savepoint(body)
        }
        try execute("BEGIN \(kind.rawValue) TRANSACTION", [])
        let value: T
        do {
            value = try body()
        } catch {
            rollbackIfOpen()
            throw error
        }
        do {
            // If COMMIT fails with SQLITE_BUSY "the transaction remains active"
            // (https://sqlite.org/lang_transaction.html), so roll it back explicitly.
            try execute("COMMIT TRANSACTION", [])
        } catch {
            rollbackIfOpen()
            throw error
        }
        return value
    }

    /// Runs `body` inside `SAVEPOINT`/`RELEASE`, rolling back to the savepoint if it throws
    /// (https://sqlite.org/lang_savepoint.html). Only called inside an open transaction.
    func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "ht_nested_\(savepointDepth)"
        try execute("SAVEPOINT \(name)", [])
        let value: T
        do {
            value = try body()
            try execute("RELEASE SAVEPOINT \(name)", [])
        } catch {
            rollbackToSavepointIfOpen(name)
            throw error
        }
        return value
    }

    /// ROLLBACK, unless SQLite already rolled the transaction back after an error (then
    /// autocommit is on again and ROLLBACK would itself fail). A failing ROLLBACK is not
    /// reported: the caller is already throwing the error that matters, and closing the
    /// connection rolls back in any case.
    func rollbackIfOpen() {
        if isInTransaction { _ = try? execute("ROLLBACK TRANSACTION", []) }
    }

    /// `ROLLBACK TO` then `RELEASE` (a rolled-back savepoint stays on the stack until
    /// released), if the transaction still exists. Returns false when the savepoint could not
    /// be rolled back, so the caller knows the outer transaction is in an unknown state.
    @discardableResult
    func rollbackToSavepointIfOpen(_ name: String) -> Bool {
        handle.rollbacks.pointee &+= 1
        guard isInTransaction else { return false }
        do {
            try execute("ROLLBACK TRANSACTION TO SAVEPOINT \(name)", [])
            try execute("RELEASE SAVEPOINT \(name)", [])
            return true
        } catch {
            return false
        }
    }
}
