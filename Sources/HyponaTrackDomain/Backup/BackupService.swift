import Foundation
import HTJSON
import SQLite

/// `POST /v1/backup` (admin).
public struct CreateBackup: Sendable {
    public var actor: String

    public init(actor: String) {
        self.actor = actor
    }
}

/// A backup made and checked: where it is, how big, and what the checks of the copy found.
public struct BackupReport: Sendable, Equatable {
    public var path: String
    public var bytes: Int
    /// ms since the epoch.
    public var createdAt: Int64
    /// SQLite's `quick_check` of the copy ("ok").
    public var integrity: String
    public var auditIntact: Bool
    public var auditRows: Int
}

/// Consistent online copies of the database under `DATA_DIR/backups/`, made on a long-read
/// connection. Restore: stop the daemon, copy the file over `DATA_DIR/hyponatrack.sqlite`,
/// delete the `-wal` and `-shm` files, start the daemon (docs/operations.md).
public final class BackupService: Sendable {
    let transactions: Transactions
    let clock: any ServerClock
    let dataDirectory: URL

    init(transactions: Transactions, clock: any ServerClock, dataDirectory: URL) {
        self.transactions = transactions
        self.clock = clock
        self.dataDirectory = dataDirectory
    }

    public func backup(_ command: CreateBackup) throws -> BackupReport {
        let ms = epochMilliseconds(clock.now())
        let dir = dataDirectory.appendingPathComponent("backups")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let stamp = iso8601UTC(milliseconds: ms).replacingOccurrences(of: ":", with: "").replacingOccurrences(of: ".", with: "-")
        let file = dir.appendingPathComponent("hyponatrack-\(stamp).sqlite")
        try transactions.longRead { db in try BackupRepository.copy(db, to: file.path) }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        // Check the copy before saying it is good: it opens, passes SQLite's integrity check and
        // its audit chain verifies (under the live key: a backup is only verifiable with it).
        let check = try Connection(path: file.path, options: .readOnly)
        defer { check.close() }
        let integrity = try BackupRepository.quickCheck(check)
        let audit = try check.transaction(.deferred) { try AuditLog.verify(check, key: transactions.database.auditKey) }
        guard integrity == "ok" else { throw DomainError.integrity("the backup failed its integrity check") }
        _ = try transactions.write { db in
            try AuditLog.append(db, at: ms, actor: command.actor, action: .backupCreate, subject: nil,
                                details: AuditDetails.Backup(path: file.path, bytes: size))
        }
        return BackupReport(path: file.path, bytes: size, createdAt: ms, integrity: integrity, auditIntact: audit.isIntact,
                            auditRows: audit.rowsChecked)
    }
}
