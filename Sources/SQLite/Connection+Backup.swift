import CSQLite
import Foundation

extension Connection {
    /// Writes a consistent copy of this database to `destinationPath` with SQLite's online
    /// backup API (https://sqlite.org/backup.html), while other connections keep writing.
    ///
    /// Why the backup API and not `VACUUM INTO`: both give a consistent snapshot, but the
    /// backup API copies pages without re-running the schema (faster on large files, same
    /// page layout), and its error handling (`SQLITE_BUSY`/`SQLITE_LOCKED` are retryable,
    /// others fatal) is documented call by call.
    ///
    /// The whole copy is one `sqlite3_backup_step(-1)`: "If N is negative, all remaining
    /// source pages are copied", under one read transaction on the source, so the copy is a
    /// single snapshot. Copying in smaller steps would release the source between steps, and
    /// "If the source database is modified by an external process or via a database
    /// connection other than the one being used by the backup operation, then the backup will
    /// be automatically restarted by the next call to sqlite3_backup_step()" — with a steady
    /// writer it might never finish. In WAL mode the read transaction does not block writers.
    ///
    /// The copy is written to `<destinationPath>.partial` (mode 0600) and renamed over
    /// `destinationPath` only when complete, so a crash never leaves a truncated file under the
    /// final name. Do not run it on a connection that is inside a write transaction (SQLite
    /// returns `SQLITE_LOCKED`); use a reader connection or a connection of its own.
    public func backup(to destinationPath: String) throws {
        let source = try handle.checked()
        let partialPath = destinationPath + ".partial"
        unlink(partialPath)
        let fd = open(partialPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 { closeFileDescriptor(fd) }

        var destination: OpaquePointer?
        let openCode = sqlite3_open_v2(partialPath, &destination,
                                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE,
                                       nil)
        guard openCode == SQLITE_OK, let destination else {
            let error = SQLiteError.from(destination, resultCode: openCode, sql: nil)
            sqlite3_close_v2(destination)
            unlink(partialPath)
            throw SQLiteError(extendedCode: error.extendedCode, message: "backup: cannot open \(partialPath): \(error.message)")
        }
        var destinationOpen = true
        defer {
            if destinationOpen { sqlite3_close_v2(destination) }
        }
        sqlite3_busy_timeout(destination, Self.milliseconds(busyTimeout))

        // "If an error occurs within sqlite3_backup_init(D,N,S,M), then NULL is returned and
        // an error code and error message are stored in the destination database connection D."
        // (https://sqlite.org/c3ref/backup_finish.html)
        guard let backup = sqlite3_backup_init(destination, "main", source, "main") else {
            let error = SQLiteError.from(destination, resultCode: sqlite3_extended_errcode(destination), sql: nil)
            unlink(partialPath)
            throw SQLiteError(extendedCode: error.extendedCode, message: "backup: \(error.message)")
        }
        let stepCode = sqlite3_backup_step(backup, -1)
        // "sqlite3_backup_finish() releases all resources associated with the sqlite3_backup
        // object" and must be called whatever step returned. Its own code reports earlier
        // IO/NOMEM errors; BUSY/LOCKED from step do not affect it.
        let finishCode = sqlite3_backup_finish(backup)
        guard stepCode == SQLITE_DONE else {
            // SQLITE_BUSY (the busy timeouts were exhausted), SQLITE_LOCKED (this connection is
            // writing), SQLITE_READONLY, SQLITE_NOMEM or SQLITE_IOERR_*.
            let error = SQLiteError.from(source, resultCode: stepCode, sql: nil)
            unlink(partialPath)
            throw SQLiteError(extendedCode: stepCode, message: "backup step failed: \(error.message)")
        }
        guard finishCode == SQLITE_OK else {
            let error = SQLiteError.from(destination, resultCode: finishCode, sql: nil)
            unlink(partialPath)
            throw SQLiteError(extendedCode: error.extendedCode, message: "backup finish failed: \(error.message)")
        }
        // The copied header says WAL, as the source's does: opening the copy (even read-only, to
        // check it) would then leave `-wal` and `-shm` files beside it, which a restore must not
        // carry over and a `find … -name '*.sqlite'` pruning never removes. A rollback-journal
        // copy is one self-contained file; the daemon sets WAL again when it opens a restored one.
        let journalCode = sqlite3_exec(destination, "PRAGMA journal_mode=DELETE", nil, nil, nil)
        guard journalCode == SQLITE_OK else {
            let error = SQLiteError.from(destination, resultCode: journalCode, sql: nil)
            unlink(partialPath)
            throw SQLiteError(extendedCode: error.extendedCode, message: "backup: cannot make the copy one file: \(error.message)")
        }
        // The destination committed with its default synchronous=FULL (rollback journal), so
        // its pages are on disk before it closes.
        destinationOpen = false
        let closeCode = sqlite3_close(destination)
        guard closeCode == SQLITE_OK else {
            unlink(partialPath)
            throw SQLiteError(extendedCode: closeCode, message: "backup: closing \(partialPath) failed")
        }
        guard rename(partialPath, destinationPath) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(partialPath)
            throw SQLiteError(extendedCode: SQLITE_IOERR, message: "backup: cannot rename to \(destinationPath): \(reason)")
        }
        Self.syncDirectory(containing: destinationPath)
    }

    /// fsync the directory so the rename itself survives a power loss.
    private static func syncDirectory(containing path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        closeFileDescriptor(fd)
    }
}
